/** Search results: the keyword highlighted (as text, never as HTML), recent/all tabs, paging, an empty state. */
import { Link } from '../../ui/link';
import { useLocation } from 'react-router-dom';
import type { SearchData } from './route';
import { href } from '../../routes';
import { encodeKeyword, splitForHighlight } from '../../search-keyword';
import { Pagination } from '../../ui/blocks/Pagination';
import { RelativeTime } from '../../ui/blocks/RelativeTime';

function Highlighted({ text, keyword }: { text: string; keyword: string }) {
  return <>{splitForHighlight(text, keyword).map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : part.text))}</>;
}

/**
 * An empty search says what to do and gives a field to do it in (the header's box is folded to its button): a
 * GET form the server turns into the search's path (server/edge/search-redirect.ts), with or without script.
 */
function EmptySearchForm() {
  return (
    <form className="search-page__form" action="/search" method="get" role="search" aria-label="搜索新闻">
      <label htmlFor="search-page-keyword" className="empty">
        请输入关键词进行搜索。
      </label>
      <input id="search-page-keyword" type="search" name="q" maxLength={100} required />
      <button type="submit" className="button">
        搜索
      </button>
    </form>
  );
}

export default function SearchPage({ data }: { data: SearchData }) {
  const { pathname } = useLocation();
  const encoded = data.keyword ? encodeKeyword(data.keyword) : '';
  return (
    <section className="search-page" aria-labelledby="search-title">
      <h1 id="search-title" className="page-title">
        {data.keyword ? `“${data.keyword}”的搜索结果` : '搜索'}
      </h1>
      {data.keyword && (
        <nav className="search-page__types" aria-label="搜索范围">
          <Link to={href.search(encoded, 1)} aria-current={data.type === 1 ? 'page' : undefined}>
            近期
          </Link>
          <Link to={href.search(encoded, 2)} aria-current={data.type === 2 ? 'page' : undefined}>
            全部
          </Link>
          <span className="search-page__count">共 {data.results.total} 条</span>
        </nav>
      )}
      {!data.keyword && <EmptySearchForm />}
      {data.keyword && data.results.items.length === 0 && <p className="empty">没有找到与“{data.keyword}”相关的内容。</p>}
      <ul className="search-results">
        {data.results.items.map((item) => (
          <li key={item.id}>
            <Link to={href.detail(item.catid, item.id)} className="search-results__title">
              <Highlighted text={item.title} keyword={data.keyword} />
            </Link>
            <p className="search-results__summary">
              <Highlighted text={item.description} keyword={data.keyword} />
            </p>
            <p className="search-results__meta">
              {item.source && <span>{item.source}</span>}
              <RelativeTime unixSeconds={item.adddate} />
            </p>
          </li>
        ))}
      </ul>
      <Pagination basePath={pathname} page={data.results.page} lastPage={data.lastPage} />
    </section>
  );
}
