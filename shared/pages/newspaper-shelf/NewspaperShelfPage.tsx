/** /electronic and /newspaperBoard: each paper's latest issue, its front page and all its pages. */
import { Link } from '../../ui/link';
import type { NewspaperShelfData } from './route';
import { href } from '../../routes';

export default function NewspaperShelfPage({ data }: { data: NewspaperShelfData }) {
  return (
    <section className="newspaper-shelf" aria-labelledby="shelf-title">
      <h1 id="shelf-title" className="page-title">
        电子报
      </h1>
      {data.latest.map((issue) => (
        <section key={issue.catid} className="newspaper-shelf__paper" aria-labelledby={`paper-${issue.catid}`}>
          <h2 id={`paper-${issue.catid}`}>
            <Link to={href.newspaper(issue.catid)}>
              {issue.paper_name} · <span className="date">{issue.issue_date}</span>
            </Link>
          </h2>
          <ul className="newspaper-shelf__pages">
            {issue.pages.map((page) => (
              <li key={page.page_no}>
                <Link to={href.newspaper(issue.catid, issue.issue_date, page.page_no)}>
                  <img src={page.image || undefined} alt="" width={240} height={340} loading="lazy" decoding="async" />
                  <span>
                    第{page.page_no}版 {page.name}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
