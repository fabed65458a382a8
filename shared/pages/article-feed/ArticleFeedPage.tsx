/**
 * Headline news, a tag's articles, a column author's articles: a header (with a subscribe button for a tag or
 * an author), then the list with paging.
 */
import { useLocation } from 'react-router-dom';
import type { ArticleFeedData } from './route';
import { ArticleList } from '../../ui/blocks/ArticleList';
import { HotNews } from '../../ui/blocks/HotNews';
import { SubscribeButton } from '../../ui/blocks/InteractionButton';
import { Pagination } from '../../ui/blocks/Pagination';
import { densitySrcSet } from '../../image-sizes';
import { useImages } from '../../ui/context';

export default function ArticleFeedPage({ data }: { data: ArticleFeedData }) {
  const images = useImages();
  const { pathname } = useLocation();
  return (
    <div className="columns">
      <section className="columns__main feed" aria-labelledby="feed-title">
        <header className="feed__header">
          {data.avatar && <img src={data.avatar} srcSet={densitySrcSet(data.avatar, 80, images)} alt="" width={80} height={80} className="feed__avatar" />}
          <div>
            <h1 id="feed-title" className="page-title">
              {data.title}
            </h1>
            {data.meta && <p className="feed__meta">{data.meta}</p>}
            {data.intro && <p className="feed__intro">{data.intro}</p>}
          </div>
          {data.subscription && <SubscribeButton kind={data.subscription.kind} id={data.subscription.id} subject={data.title} />}
        </header>
        <ArticleList items={data.articles.items} className="article-list article-list--page" />
        {data.articles.items.length === 0 && <p className="empty">暂无文章</p>}
        <Pagination basePath={pathname} page={data.articles.page} lastPage={data.lastPage} />
      </section>
      <aside className="columns__side" aria-label="侧栏">
        <HotNews />
      </aside>
    </div>
  );
}
