/** Home: the site's home categories with their latest articles, hot news beside them. */
import { Link } from 'react-router-dom';
import type { HomeData } from '../../shared/loaders/home';
import { ArticleList } from '../blocks/ArticleList';
import { HotNews } from '../blocks/HotNews';

export default function HomePage({ data }: { data: HomeData }) {
  const [lead, ...rest] = data.blocks;
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
        <HotNews />
      </aside>
    </div>
  );
}
