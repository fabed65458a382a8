/**
 * From a request path to the page state: match the route table, run the route's loader, and decide the status
 * (200, 404, 503, 500) before anything is rendered, so no byte leaves with the wrong status.
 */
import type { LoadedPageState, PageDataResponse, StatusPageState } from '../../shared/app-state';
import { TEXT } from '../../shared/constants';
import type { AccountApi } from '../../shared/account-api';
import type { ContentApi } from '../../shared/content-api';
import { ContentUnavailableError } from '../../shared/content-api';
import { siteTitle } from '../pages/helpers';
import type { PageHead } from '../../shared/app-state';
import type { LoaderResult } from '../pages/types';
import type { PageAddress } from '../../shared/page-address';
import type { PageId, PageRouteIdOf } from '../../shared/page-data';
import type { PageRoute, RouteParams } from '../../shared/routes';
import type { SiteConfig } from '../../shared/sites';
import type { Logger } from '../logger';
import { loaderOf } from '../pages/registry';

export const UNAVAILABLE_MESSAGE = '服务暂时不可用，请稍后再试';

/**
 * How a page's failed data is logged, once per page asked: a content call that could not be answered (the content
 * API down or refusing, which server/upstream/failure-log.ts tells per call family at its start, each minute and
 * its end) is a warning naming the call, with no stack; anything else is an error with its stack, a bug to read.
 */
export function pageDataFailure(logger: Logger, what: string, path?: string): (error: unknown) => void {
  return (error) => {
    if (error instanceof ContentUnavailableError) logger.warn({ call: error.call, path }, `${what}: a content call failed`);
    else logger.error({ err: error, path }, what);
  };
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

export interface PrepareInput {
  site: SiteConfig;
  /** Worked out once per request (shared/page-address.ts): the route it matched and the query its page reads. */
  address: PageAddress;
  content: ContentApi;
  now: number;
  /** The signed-in reader's lists; null (anonymous) unless the request carries a live session. */
  account: AccountApi | null;
  onLoaderError?: (error: unknown) => void;
}

function siteHead(site: SiteConfig, title: string): PageHead {
  return { title: siteTitle(title, site), description: site.seo_description, keywords: site.seo_keywords };
}

/**
 * The one builder of the 404 and error pages' state, for every place a page ends on one: a route its loader
 * did not find, a loader that failed, a page with no data (503), a shell that failed to render (500).
 */
export function statusPage(site: SiteConfig, path: string, status: number, message: string | undefined, now: number): StatusPageState {
  return {
    path,
    routeId: null,
    page: status === 404 ? 'not-found' : 'error',
    params: {},
    status,
    data: null,
    head: siteHead(site, message ?? TEXT.notFound),
    now,
    ...(message ? { message } : {}),
  };
}

/**
 * Runs the loader of a route's page and, when it finds the page, the state that shows it. Generic over the page
 * so the compiler follows the route to its page and its data: no cast between loader and component.
 */
async function loadRoutePage<P extends PageId>(
  route: PageRoute<PageRouteIdOf<P>, P>,
  params: RouteParams,
  input: PrepareInput,
): Promise<LoaderResult<LoadedPageState<P>>> {
  // The page sees only the query its route reads: that is all its cache key holds, so all a stored page may hold.
  const { query } = input.address;
  const result = await loaderOf(
    route.page,
    route.id,
  )({
    params,
    query: new URLSearchParams(query),
    site: input.site,
    content: input.content,
    now: input.now,
    account: input.account,
  });
  if (result.kind !== 'ok') return result;
  const page: LoadedPageState<P> = {
    path: input.address.path,
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

/** What preparing a page ends on: the page, or another path of the portal to redirect to. */
export type PreparedPage = Extract<PageDataResponse, { kind: 'page' | 'redirect' }>;

export async function preparePage(input: PrepareInput): Promise<PreparedPage> {
  const { match, path } = input.address;
  const endsOn = (status: number, message?: string): PreparedPage => ({
    kind: 'page',
    page: statusPage(input.site, path, status, message, input.now),
  });
  if (match.kind === 'redirect') return { kind: 'redirect', location: match.location };
  if (match.kind === 'not-found') return endsOn(404);
  try {
    const result = await loadRoutePage(match.route, match.params, input);
    if (result.kind === 'redirect') return { kind: 'redirect', location: result.location, ...(result.permanent ? { permanent: true } : {}) };
    if (result.kind === 'not-found') return endsOn(404);
    return { kind: 'page', page: result.data };
  } catch (error) {
    input.onLoaderError?.(error);
    if (error instanceof ContentUnavailableError) return endsOn(503, UNAVAILABLE_MESSAGE);
    return endsOn(500, TEXT.errorDefault);
  }
}
