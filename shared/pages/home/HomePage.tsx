/** Home: the site's home categories with their latest articles, hot news beside them. */
import { Fragment } from 'react';
import { Link } from '../../ui/link';
import { BETWEEN_ROW_SLOTS, FIXED_HOME_SLOTS as SLOT, dealToGaps } from '../../home-ad-slots';
import type { HomeBlock, HomeData } from './route';
import { ArticleList } from '../../ui/blocks/ArticleList';
import { AdCarousel } from '../../ui/blocks/AdCarousel';
import { HomeLives, HomeNewsTracks } from '../../ui/blocks/HomeLiveAndTracks';
import { HotNews } from '../../ui/blocks/HotNews';
import { RecommendedTopics } from '../../ui/blocks/RecommendedTopics';
import { SpecialColumns } from '../../ui/blocks/SpecialColumns';
import { usePortal } from '../../ui/context';

const BLOCKS_PER_ROW = 2;
const BANNER_HEIGHT_PX = 90;

function rowsOf(blocks: readonly HomeBlock[]): HomeBlock[][] {
  const rows: HomeBlock[][] = [];
  for (let start = 0; start < blocks.length; start += BLOCKS_PER_ROW) rows.push(blocks.slice(start, start + BLOCKS_PER_ROW));
  return rows;
}

function CategoryBlock({ block }: { block: HomeBlock }) {
  return (
    <section className="home-block" aria-labelledby={`block-${block.catid}`}>
      <h2 id={`block-${block.catid}`} className="block-title">
        {block.catname}
      </h2>
      <ArticleList items={block.items} />
    </section>
  );
}

export default function HomePage({ data }: { data: HomeData }) {
  const { state } = usePortal();
  const [lead, ...rest] = data.blocks;
  const slot = (position: number) => data.adSlots.find((entry) => entry.position === position)?.ads ?? [];
  const rows = rowsOf(rest);
  // Slots 8–16 the site has, spread over the gaps after each row (the last gap is below the last row), so every
  // slot the CMS fills is shown however few category blocks the site has (docs/product.md §3).
  const bannerSlots = BETWEEN_ROW_SLOTS.filter((position) => slot(position).length > 0);
  const gaps = dealToGaps(bannerSlots, rows.length);
  const banners = (positions: readonly number[] = []) =>
    positions.map((position) => (
      <div className="home-grid__ad" key={`ad-${position}`}>
        {/* Named by its slot: a landmark list names each region once (issue 29). */}
        <AdCarousel ads={slot(position)} height={BANNER_HEIGHT_PX} label={`广告位 ${position}`} slot={position} />
      </div>
    ));
  return (
    <div className="columns">
      <div className="columns__main home">
        {/* One h1 per page (issue 29): home's is the site's name, for screen readers; the logo shows it. */}
        <h1 className="visually-hidden">{state.layout.seo.title}</h1>
        {lead && (
          <section className="home-lead" aria-labelledby={`block-${lead.catid}`}>
            <h2 id={`block-${lead.catid}`} className="block-title">
              {lead.catname}
            </h2>
            <ArticleList items={lead.items} className="article-list article-list--lead" />
          </section>
        )}
        {/* After the lead block, where a phone shows it (issue 38, item 2); from 768px up CSS puts it first (decision 0150). */}
        {/* In the first screen at every width, and a phone's largest picture there (its Largest Contentful Paint):
            its first picture is not left to lazy loading. */}
        <AdCarousel ads={slot(SLOT.homeAdvertising)} height={BANNER_HEIGHT_PX} label="首页通栏广告" slot={SLOT.homeAdvertising} eager />
        <AdCarousel ads={slot(SLOT.mainMiddle)} height={120} label="首页广告" slot={SLOT.mainMiddle} />
        <div className="home-grid">
          {rows.map((row, index) => (
            <Fragment key={row[0]!.catid}>
              {row.map((block) => (
                <CategoryBlock key={block.catid} block={block} />
              ))}
              {banners(gaps[index])}
            </Fragment>
          ))}
          {rows.length === 0 && banners(gaps[0])}
        </div>
        {data.blocks.length === 0 && (
          <p className="empty">
            暂无内容，<Link to="/">刷新</Link>
          </p>
        )}
      </div>
      <aside className="columns__side" aria-label="侧栏">
        <HotNews adsAbove={slot(SLOT.hotNewsTop)} adsBelow={slot(SLOT.hotNewsBottom)} />
        <HomeLives lives={data.lives} />
        <HomeNewsTracks tracks={data.newsTracks} />
        <RecommendedTopics adsBelow={slot(SLOT.hotTopicBottom)} />
        <SpecialColumns adsBelow={slot(SLOT.specialColumnBottom)} />
      </aside>
    </div>
  );
}
