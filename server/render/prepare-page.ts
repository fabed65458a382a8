/**
 * From a request path to the page state: match the route table, run the route's loader, and decide the status
 * (200, 404, 503, 500) before anything is rendered, so no byte leaves with the wrong status.
 */
import type { PageState, PageDataResponse } from '../../shared/app-state';
import { TEXT } from '../../shared/constants';
import type { AccountApi } from '../../shared/account-api';
import type { ContentApi } from '../../shared/content-api';
import { ContentUnavailableError } from '../../shared/content-api';
import type { PageHead } from '../../shared/loaders/types';
import { normaliseQuery } from '../../shared/page-address';
import { matchRoute } from '../../shared/routes';
import type { SiteConfig } from '../../shared/sites';

export const UNAVAILABLE_MESSAGE = '服务暂时不可用，请稍后再试';

export interface PrepareInput {
  site: SiteConfig;
  pathname: string;
  search: string;
  content: ContentApi;
  now: number;
  /** The signed-in reader's lists; null (anonymous) unless the request carries a live session. */
  account: AccountApi | null;
  onLoaderError?: (error: unknown) => void;
}

function siteHead(site: SiteConfig, title: string): PageHead {
  return { title: `${title} - ${site.seo_title}`, description: site.seo_description, keywords: site.seo_keywords };
}

function statusPage(input: PrepareInput, status: number, message: string | undefined): PageState {
  return {
    path: input.pathname,
    routeId: null,
    page: status === 404 ? 'not-found' : 'error',
    params: {},
    status,
    data: null,
    head: siteHead(input.site, message ?? TEXT.notFound),
    now: input.now,
    ...(message ? { message } : {}),
  };
}

export async function preparePage(input: PrepareInput): Promise<PageDataResponse> {
  const match = matchRoute(input.pathname);
  if (match.kind === 'redirect') return { kind: 'redirect', location: match.location };
  if (match.kind === 'not-found') return { kind: 'page', page: statusPage(input, 404, undefined) };
  const { route, params } = match;
  const { loader, page } = route;
  // Matched and validated, but its page is not built yet: not there, so 404 rather than a placeholder.
  if (!loader || !page) return { kind: 'page', page: statusPage(input, 404, undefined) };
  // The page sees only the query its route reads: that is all its cache key holds, so all a stored page may hold.
  const query = normaliseQuery(new URLSearchParams(input.search), route.query ?? []);
  try {
    const result = await loader({
      params,
      query: new URLSearchParams(query),
      site: input.site,
      content: input.content,
      now: input.now,
      account: input.account,
    });
    if (result.kind === 'redirect') return { kind: 'redirect', location: result.location };
    if (result.kind === 'not-found') return { kind: 'page', page: statusPage(input, 404, undefined) };
    return {
      kind: 'page',
      page: {
        path: input.pathname + query,
        routeId: route.id,
        page,
        params,
        status: 200,
        data: result.data,
        head: result.head,
        now: input.now,
      },
    };
  } catch (error) {
    input.onLoaderError?.(error);
    if (error instanceof ContentUnavailableError) return { kind: 'page', page: statusPage(input, 503, UNAVAILABLE_MESSAGE) };
    return { kind: 'page', page: statusPage(input, 500, TEXT.errorDefault) };
  }
}
