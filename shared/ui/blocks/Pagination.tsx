/** Previous / numbered / next page links: real hrefs with ?page=N, so crawlers and script-less readers can page. */
import { Link } from '../link';
import { href } from '../../routes';

const WINDOW = 2;

function pageNumbers(page: number, last: number): number[] {
  const from = Math.max(1, page - WINDOW);
  const to = Math.min(last, page + WINDOW);
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

export function Pagination({ basePath, page, lastPage }: { basePath: string; page: number; lastPage: number }) {
  if (lastPage <= 1) return null;
  return (
    <nav className="pagination" aria-label="分页">
      {page > 1 && (
        <Link to={href.withPage(basePath, page - 1)} rel="prev">
          上一页
        </Link>
      )}
      {pageNumbers(page, lastPage).map((number) =>
        number === page ? (
          <span key={number} aria-current="page" className="pagination__current">
            {number}
          </span>
        ) : (
          <Link key={number} to={href.withPage(basePath, number)}>
            {number}
          </Link>
        ),
      )}
      {page < lastPage && (
        <Link to={href.withPage(basePath, page + 1)} rel="next">
          下一页
        </Link>
      )}
      <span className="pagination__total">共{lastPage}页</span>
    </nav>
  );
}
