/** Home: the site's home categories with their latest articles, hot news beside them. */
import { Fragment } from 'react';
import { Link } from '../navigation/router';
import type { HomeData } from '../../shared/loaders/home';
import { ArticleList } from '../blocks/ArticleList';
import { AdCarousel } from '../blocks/AdCarousel';
import { HomeLives, HomeNewsTracks } from '../blocks/HomeLiveAndTracks';
import { HotNews } from '../blocks/HotNews';
import { RecommendedTopics } from '../blocks/RecommendedTopics';
import { SpecialColumns } from '../blocks/SpecialColumns';

/**
 * Homepage ad slots by CMS position (docs/product.md §3): 1/2 around hot news, 3 under topics, 4 under columns, 5 after
 * the lead block, 6 above it (home advertising); 8 (week hot bottom), 9 (recommend news bottom) and 10–16
 * (others) take turns between the rows of category blocks.
 */
const SLOT = { hotNewsTop: 1, hotNewsBottom: 2, hotTopicBottom: 3, specialColumnBottom: 4, mainMiddle: 5, homeAdvertising: 6 } as const;
const BETWEEN_ROWS = [8, 9, 10, 11, 12, 13, 14, 15, 16] as const;
const BLOCKS_PER_ROW = 2;

export default function HomePage({ data }: { data: HomeData }) {
  const [lead, ...rest] = data.blocks;
  const slot = (position: number) => data.adSlots.find((entry) => entry.position === position)?.ads ?? [];
  return (
    <div className="columns">
      <div className="columns__main home">
        <AdCarousel ads={slot(SLOT.homeAdvertising)} height={90} label="首页通栏广告" />
        {lead && (
          <section className="home-lead" aria-labelledby={`block-${lead.catid}`}>
            <h2 id={`block-${lead.catid}`} className="block-title">
              {lead.catname}
            </h2>
            <ArticleList items={lead.items} className="article-list article-list--lead" />
          </section>
        )}
        <AdCarousel ads={slot(SLOT.mainMiddle)} height={120} label="首页广告" />
        <div className="home-grid">
          {rest.map((block, index) => {
            const rowEnds = index % BLOCKS_PER_ROW === BLOCKS_PER_ROW - 1;
            const position = BETWEEN_ROWS[Math.floor(index / BLOCKS_PER_ROW)];
            const ads = rowEnds && position !== undefined ? slot(position) : [];
            return (
              <Fragment key={block.catid}>
                <section className="home-block" aria-labelledby={`block-${block.catid}`}>
                  <h2 id={`block-${block.catid}`} className="block-title">
                    {block.catname}
                  </h2>
                  <ArticleList items={block.items} />
                </section>
                {ads.length > 0 && (
                  <div className="home-grid__ad">
                    <AdCarousel ads={ads} height={90} label="广告" />
                  </div>
                )}
              </Fragment>
            );
          })}
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
