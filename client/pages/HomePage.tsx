/** Home: the site's home categories with their latest articles, hot news beside them. */
import { Link } from 'react-router-dom';
import type { HomeData } from '../../shared/loaders/home';
import { ArticleList } from '../blocks/ArticleList';
import { AdCarousel } from '../blocks/AdCarousel';
import { HotNews } from '../blocks/HotNews';
import { RecommendedTopics } from '../blocks/RecommendedTopics';
import { SpecialColumns } from '../blocks/SpecialColumns';

/** Homepage ad slots by CMS position (SPEC §3): 1/2 around hot news, 3 under topics, 4 under columns, 5 mid-page. */
const SLOT = { hotNewsTop: 1, hotNewsBottom: 2, hotTopicBottom: 3, specialColumnBottom: 4, mainMiddle: 5 } as const;

export default function HomePage({ data }: { data: HomeData }) {
  const [lead, ...rest] = data.blocks;
  const slot = (position: number) => data.adSlots.find((entry) => entry.position === position)?.ads ?? [];
  return (
    <div className="columns">
      <div className="columns__main home">
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
          {rest.map((block) => (
            <section key={block.catid} className="home-block" aria-labelledby={`block-${block.catid}`}>
              <h2 id={`block-${block.catid}`} className="block-title">
                {block.catname}
              </h2>
              <ArticleList items={block.items} />
            </section>
          ))}
        </div>
        {data.blocks.length === 0 && (
          <p className="empty">
            暂无内容，<Link to="/">刷新</Link>
          </p>
        )}
      </div>
      <aside className="columns__side" aria-label="侧栏">
        <HotNews adsAbove={slot(SLOT.hotNewsTop)} adsBelow={slot(SLOT.hotNewsBottom)} />
        <RecommendedTopics adsBelow={slot(SLOT.hotTopicBottom)} />
        <SpecialColumns adsBelow={slot(SLOT.specialColumnBottom)} />
      </aside>
    </div>
  );
}
