/** The contract between the route table and the pages: a loader turns a matched route into page data. */
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
}

/** What the document head says about a page; the server writes it, the client applies it after navigation. */
export interface PageHead {
  title: string;
  description: string;
  keywords: string;
}

export type LoaderResult<T> =
  | { kind: 'ok'; data: T; head: PageHead }
  | { kind: 'not-found' }
  | { kind: 'redirect'; location: string };

export type Loader<T> = (ctx: LoaderContext) => Promise<LoaderResult<T>>;
