/**
 * The article body is in the document once. The detail and reading pages render it as HTML
 * (shared/ui/blocks/ArticleContent.tsx); the hydration state leaves it empty, and the browser entry reads it back
 * from the rendered element before hydrating, instead of every article page carrying its text twice
 * (docs/build.md, page weight). Client navigations still get the body in the page data.
 */
import type { PageState } from './app-state';

/** Where ArticleContent renders the body (shared/ui/blocks/ArticleContent.tsx). */
export const ARTICLE_BODY_SELECTOR = 'article.article > .article__body';

/** The page with its article's body replaced by `contentHtml`; pages without an article body as they are. */
export function withArticleBody(page: PageState, contentHtml: string): PageState {
  if (page.page === 'detail') return { ...page, data: { ...page.data, article: { ...page.data.article, contentHtml } } };
  if (page.page === 'reading') return { ...page, data: { ...page.data, article: { ...page.data.article, contentHtml } } };
  return page;
}

/** Whether the page shows an article body the document carries. */
export function hasArticleBody(page: PageState): boolean {
  return page.page === 'detail' || page.page === 'reading';
}
