/** A category's articles, newest first, with sub-category tabs and paging. V2 shows cards, V1 a text list. */
import { Link } from '../../ui/link';
import { useLocation } from 'react-router-dom';
import type { CategoryListData } from './route';
import { href } from '../../routes';
import { ArticleCards } from '../../ui/blocks/ArticleCards';
import { ArticleList } from '../../ui/blocks/ArticleList';
import { HotNews } from '../../ui/blocks/HotNews';
import { Pagination } from '../../ui/blocks/Pagination';

export default function CategoryListPage({ data }: { data: CategoryListData }) {
  const { pathname } = useLocation();
  const cards = /\/V2\/\d+$/.test(pathname);
  return (
    <div className="columns">
      <section className="columns__main category" aria-labelledby="category-title">
        <h1 id="category-title" className="page-title">
          {data.catname}
        </h1>
        {data.children.length > 0 && (
          <nav className="category__tabs" aria-label="子栏目">
            {data.children.map((child) => (
              <Link key={child.catid} to={href.categoryList(child.catid)}>
                {child.catname}
              </Link>
            ))}
          </nav>
        )}
        {cards ? <ArticleCards items={data.list.items} /> : <ArticleList items={data.list.items} className="article-list article-list--page" />}
        {data.list.items.length === 0 && <p className="empty">该栏目暂无文章</p>}
        <Pagination basePath={pathname} page={data.list.page} lastPage={data.lastPage} />
      </section>
      <aside className="columns__side" aria-label="侧栏">
        <HotNews />
      </aside>
    </div>
  );
}
