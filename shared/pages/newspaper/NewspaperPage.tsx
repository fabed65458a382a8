/** One newspaper page (版面): the page image with its article areas as links, page and date navigation, and the page's articles. */
import { Link } from '../../ui/link';
import type { NewspaperData } from './route';
import { href } from '../../routes';

export default function NewspaperPage({ data }: { data: NewspaperData }) {
  const { issue, pageNo, catid } = data;
  const page = issue.pages.find((candidate) => candidate.page_no === pageNo) ?? issue.pages[0]!;
  const catidOf = new Map(data.articles.map((article) => [article.id, article.catid]));
  return (
    <article className="newspaper" aria-labelledby="paper-title">
      <header className="newspaper__header">
        <h1 id="paper-title" className="page-title">
          {/* The issue's date one unit, never broken over two lines (CSS .date). */}
          {`${issue.paper_name} · `}
          <span className="date">{issue.issue_date}</span>
          {` · 第${page.page_no}版 ${page.name}`}
        </h1>
        <nav className="newspaper__dates" aria-label="往期">
          {data.recentDates.map((date) => (
            <Link key={date} to={href.newspaper(catid, date)} aria-current={date === issue.issue_date ? 'page' : undefined}>
              {date.slice(5)}
            </Link>
          ))}
        </nav>
      </header>
      <div className="newspaper__body">
        <div className="newspaper__sheet" style={{ aspectRatio: `${page.width} / ${page.height}` }}>
          <img src={page.image || undefined} alt={`${issue.paper_name}第${page.page_no}版`} width={page.width} height={page.height} />
          {page.areas.map((area) => {
            const articleCatid = catidOf.get(area.article_id);
            if (articleCatid === undefined) return null;
            return (
              <Link
                key={area.article_id}
                to={href.detail(articleCatid, area.article_id)}
                className="newspaper__area"
                aria-label={area.title}
                style={{
                  left: `${(area.x / page.width) * 100}%`,
                  top: `${(area.y / page.height) * 100}%`,
                  width: `${(area.width / page.width) * 100}%`,
                  height: `${(area.height / page.height) * 100}%`,
                }}
              />
            );
          })}
        </div>
        <aside className="newspaper__side">
          <nav aria-label="版面">
            <ol className="newspaper__pages">
              {issue.pages.map((candidate) => (
                <li key={candidate.page_no}>
                  <Link to={href.newspaper(catid, issue.issue_date, candidate.page_no)} aria-current={candidate.page_no === page.page_no ? 'page' : undefined}>
                    第{candidate.page_no}版 {candidate.name}
                  </Link>
                </li>
              ))}
            </ol>
          </nav>
          <h2 className="block-title">本版文章</h2>
          <ul className="article-list">
            {data.articles.map((article) => (
              <li key={article.id}>
                <Link to={href.detail(article.catid, article.id)}>{article.title}</Link>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </article>
  );
}
