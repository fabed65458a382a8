/**
 * From a request path to the page state: match the route table, run the route's loader, and decide the status
 * (200, 404, 503, 500) before anything is rendered, so no byte leaves with the wrong status.
 */
import type { LoadedPageState, PageDataResponse, StatusPageState } from '../../shared/app-state';
import { TEXT } from '../../shared/constants';
import type { AccountApi } from '../../shared/account-api';
import type { ContentApi } from '../../shared/content-api';
import { ContentUnavailableError } from '../../shared/content-api';
import { siteTitle } from '../../shared/loaders/helpers';
import type { LoaderResult, PageHead } from '../../shared/loaders/types';
import { normaliseQuery } from '../../shared/page-address';
import { matchRoute, type PageOfRoute, type PageRouteId, type PageRoute, type RouteParams } from '../../shared/routes';
import type { SiteConfig } from '../../shared/sites';
import { loaderOf } from './page-loaders';

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
  return { title: siteTitle(title, site), description: site.seo_description, keywords: site.seo_keywords };
}

function statusPage(input: PrepareInput, status: number, message: string | undefined): StatusPageState {
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

/**
 * Runs the loader of a route's page and, when it finds the page, the state that shows it. Generic over the route
 * id so the compiler follows the route to its page and its data: no cast between loader and component.
 */
async function loadRoutePage<Id extends PageRouteId>(
  route: PageRoute<Id, PageOfRoute<Id>>,
  params: RouteParams,
  input: PrepareInput,
): Promise<LoaderResult<LoadedPageState<PageOfRoute<Id>>>> {
  // The page sees only the query its route reads: that is all its cache key holds, so all a stored page may hold.
  const query = normaliseQuery(new URLSearchParams(input.search), route.query ?? []);
  const result = await loaderOf<Id>(route.id)({
    params,
    query: new URLSearchParams(query),
    site: input.site,
    content: input.content,
    now: input.now,
    account: input.account,
  });
  if (result.kind !== 'ok') return result;
  const page: LoadedPageState<PageOfRoute<Id>> = {
    path: input.pathname + query,
    routeId: route.id,
    page: route.page,
    params,
    status: 200,
    data: result.data,
    head: result.head,
    now: input.now,
  };
  return { kind: 'ok', data: page, head: result.head };
}

export async function preparePage(input: PrepareInput): Promise<PageDataResponse> {
  const match = matchRoute(input.pathname);
  if (match.kind === 'redirect') return { kind: 'redirect', location: match.location };
  if (match.kind === 'not-found') return { kind: 'page', page: statusPage(input, 404, undefined) };
  try {
    const result = await loadRoutePage(match.route, match.params, input);
    if (result.kind === 'redirect') return { kind: 'redirect', location: result.location };
    if (result.kind === 'not-found') return { kind: 'page', page: statusPage(input, 404, undefined) };
    return { kind: 'page', page: result.data };
  } catch (error) {
    input.onLoaderError?.(error);
    if (error instanceof ContentUnavailableError) return { kind: 'page', page: statusPage(input, 503, UNAVAILABLE_MESSAGE) };
    return { kind: 'page', page: statusPage(input, 500, TEXT.errorDefault) };
  }
}
