/** An article's headline, time, source and author, and its sanitised body: the same on detail and reading pages. */
import type { ReactNode } from 'react';
import type { Article } from '../../types/entities';
import { DateTime } from './DateTime';

export function ArticleContent({ article, children }: { article: Article; children?: ReactNode }) {
  return (
    <article className="article">
      <header className="article__header">
        <h1 className="article__title">{article.fullTitle}</h1>
        <p className="article__meta">
          <DateTime unixSeconds={article.adddate} />
          {article.source && <span>来源：{article.source}</span>}
          {article.author && <span>作者：{article.author}</span>}
        </p>
      </header>
      {/* contentHtml was sanitised on the server (server/upstream/sanitise-html.ts) before it entered any state. */}
      <div className="article__body" dangerouslySetInnerHTML={{ __html: article.contentHtml }} />
      {article.editor && <p className="article__editor">{`责任编辑：${article.editor}`}</p>}
      {children}
    </article>
  );
}
