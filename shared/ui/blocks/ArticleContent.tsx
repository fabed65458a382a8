/** An article's headline, time, source and author, and its sanitised body: the same on detail and reading pages. */
import type { ReactNode } from 'react';
import { href } from '../../routes';
import type { Article } from '../../types/entities';
import { Link } from '../link';
import { DateTime } from './DateTime';
import { withBodyImageCandidates } from '../../image-sizes';
import { useImages } from '../context';

/**
 * The byline: a column author's name opens their page (issue 38, item 1: an entity a page names links to it); any
 * other author is a name only, since the CMS gives them no page.
 */
function Byline({ article }: { article: Article }) {
  if (article.columnistId === null) return <span className="article__byline">作者：{article.author}</span>;
  return (
    <span className="article__byline">
      作者：
      <Link className="article__author" to={href.specialColumnDetail(article.columnistId)}>
        {article.author}
      </Link>
    </span>
  );
}

/** `afterHeader`: what follows the headline, time and source before the body (a phone's ad on the detail page). */
export function ArticleContent({ article, afterHeader, children }: { article: Article; afterHeader?: ReactNode; children?: ReactNode }) {
  const images = useImages();
  return (
    <article className="article">
      <header className="article__header">
        <h1 className="article__title">{article.fullTitle}</h1>
        <p className="article__meta">
          <DateTime unixSeconds={article.adddate} />
          {article.source && <span>来源：{article.source}</span>}
          {article.author && <Byline article={article} />}
        </p>
      </header>
      {afterHeader}
      {/* contentHtml was sanitised on the server (server/upstream/sanitise-html.ts) before it entered any state. */}
      <div className="article__body" dangerouslySetInnerHTML={{ __html: withBodyImageCandidates(article.contentHtml, images) }} />
      {article.editor && <p className="article__editor">{`责任编辑：${article.editor}`}</p>}
      {children}
    </article>
  );
}
