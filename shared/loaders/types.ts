/** The contract between the route table and the pages: a loader turns a matched route into page data. */
import type { AccountApi } from '../account-api';
import type { ContentApi } from '../content-api';
import type { RouteParams } from '../route-params';
import type { SiteConfig } from '../sites';

export interface LoaderContext {
  params: RouteParams;
  query: URLSearchParams;
  site: SiteConfig;
  content: ContentApi;
  /** The render's "now", unix seconds. */
  now: number;
  /** The signed-in reader's own lists; null for an anonymous reader (whose render may be cached). */
  account: AccountApi | null;
}

/** What the document head says about a page; the server writes it, the client applies it after navigation. */
export interface PageHead {
  title: string;
  description: string;
  keywords: string;
  /** Open Graph type; 'website' when absent. */
  ogType?: 'website' | 'article' | 'video.other';
  /** Picture for shares and previews (absolute URL). */
  image?: string;
  /** The category whose RSS feed the page advertises (`/rss/{catid}.xml`); the site's hot-news feed when absent. */
  feedCatid?: number;
  /** schema.org structured data (NewsArticle, VideoObject, …), written as JSON-LD. */
  jsonLd?: Record<string, unknown> | ReadonlyArray<Record<string, unknown>>;
  /**
   * The page's one path, when a second one of the site's own answers it too (home at `/home`): the canonical link
   * and og:url name it. Absent: the page's own address.
   */
  canonicalPath?: string;
}

/** A redirect is a 302 unless `permanent` (a 301: another path of the same page, docs/security.md "One path per page"). */
export type LoaderResult<T> = { kind: 'ok'; data: T; head: PageHead } | { kind: 'not-found' } | { kind: 'redirect'; location: string; permanent?: boolean };

export type Loader<T> = (ctx: LoaderContext) => Promise<LoaderResult<T>>;
