/** Article detail: the float menu beside the article (headline, time, source and author, sanitised body, tags). */
import type { DetailData } from '../../shared/loaders/detail';
import { formatDateTime, isoDateTime } from '../../shared/time';
import { FloatMenu } from '../blocks/FloatMenu';

export default function DetailPage({ data }: { data: DetailData }) {
  const { article } = data;
  return (
    <div className="detail">
      <div className="detail__tools">
        <FloatMenu article={{ catid: article.catid, id: article.id, title: article.fullTitle }} mode="detail" />
      </div>
      <article className="article">
        <header className="article__header">
          <h1 className="article__title">{article.fullTitle}</h1>
          <p className="article__meta">
            <time dateTime={isoDateTime(article.adddate)}>{formatDateTime(article.adddate)}</time>
            {article.source && <span>来源：{article.source}</span>}
            {article.author && <span>作者：{article.author}</span>}
          </p>
        </header>
        {/* contentHtml was sanitised on the server (server/upstream/sanitise-html.ts) before it entered any state. */}
        <div className="article__body" dangerouslySetInnerHTML={{ __html: article.contentHtml }} />
        {article.tags.length > 0 && (
          <ul className="article__tags" aria-label="标签">
            {article.tags.map((tag) => (
              <li key={tag.id}>{tag.name}</li>
            ))}
          </ul>
        )}
      </article>
    </div>
  );
}
