/** The contract between the route table and the pages: a loader turns a matched route into page data (server only). */
import type { AccountApi } from '../../shared/account-api';
import type { ContentApi } from '../../shared/content-api';
import type { RouteParams } from '../../shared/route-params';
import type { SiteConfig } from '../../shared/sites';
import type { PageHead } from '../../shared/app-state';

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

/** A redirect is a 302 unless `permanent` (a 301: another path of the same page, docs/security.md "One path per page"). */
export type LoaderResult<T> = { kind: 'ok'; data: T; head: PageHead } | { kind: 'not-found' } | { kind: 'redirect'; location: string; permanent?: boolean };

export type Loader<T> = (ctx: LoaderContext) => Promise<LoaderResult<T>>;
