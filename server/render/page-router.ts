/**
 * React Router runs the page on the server: its static handler matches the address over the portal's routes
 * (shared/ui/routes.tsx) and calls the matched route's loader, which runs the page's own loader (server/pages)
 * with what this request brings (a PageLoad, the query's request context). The status is the handler's: a page
 * the loader does not find is a 404, one whose data could not be had a 503, a loader that throws is the route's
 * ErrorBoundary with a 500, as in the browser. The document is rendered from the handler's context
 * (render-document.tsx); `/_data/page` answers the browser's loaders from the same query.
 */
import { createStaticHandler, data, matchRoutes, redirect, type LoaderFunction, type LoaderFunctionArgs, type StaticHandlerContext } from 'react-router-dom';
import type { LoadedPageState, PageState } from '../../shared/app-state';
import { TEXT } from '../../shared/constants';
import type { AccountApi } from '../../shared/account-api';
import { ContentUnavailableError, type ContentApi } from '../../shared/content-api';
import type { PageAddress } from '../../shared/page-address';
import type { PageData, PageId, PageRouteIdOf } from '../../shared/page-data';
import { decodesAsUtf8, type PageRoute, type RouteParams } from '../../shared/routes';
import type { SiteConfig } from '../../shared/sites';
import { createPortalRoutes } from '../../shared/ui/routes';
import { loaderOf } from '../pages/registry';
import type { LoaderResult } from '../pages/types';
import type { CallRecorder } from '../upstream/content-service';
import { statusPage, unavailableIfNoData, UNAVAILABLE_MESSAGE } from './page-status';

export interface PageLoadInput {
  site: SiteConfig;
  /** Worked out once per request (shared/page-address.ts): the route React Router matched and the query its page reads. */
  address: PageAddress;
  /** The page's own calls: one that fails throws, so a page without its data is a 503, never an empty page. */
  content: ContentApi;
  /** Records `content`'s calls: a page none of whose calls was answered is a 503. */
  pageCalls: CallRecorder;
  now: number;
  /** The signed-in reader's lists; null (anonymous) unless the request carries a live session. */
  account: AccountApi | null;
  onLoaderError: (error: unknown) => void;
}

/** What one request brings the route loaders; a class, so a loader can tell it from anything else it is given. */
export class PageLoad {
  constructor(readonly input: PageLoadInput) {}
}

export type RoutedPage = { kind: 'redirect'; location: string; permanent: boolean } | { kind: 'page'; page: PageState; router: StaticHandlerContext };

/**
 * The route's loader: the page of the address's match (findRoute, React Router's matchRoutes over the same
 * table), or the 404 page for a path that is no page (the `*` route, a route whose params break their rules).
 */
function routeLoader(routeId: string): LoaderFunction {
  return ({ context }: LoaderFunctionArgs<unknown>) => {
    if (!(context instanceof PageLoad)) throw new Error(`route ${routeId} was asked without a page load`);
    const { input } = context;
    const { match } = input.address;
    if (match.kind !== 'page' || match.route.id !== routeId) return statusData(input, 404);
    return loadPage(match.route, match.params, input);
  };
}

function statusData(input: PageLoadInput, status: number, message?: string) {
  return data(statusPage(input.site, input.address.path, status, message, input.now), { status });
}

/** Runs the page's loader, typed by the page so the compiler follows the route to its data. */
async function loadPage<P extends PageId>(route: PageRoute<PageRouteIdOf<P>, P>, params: RouteParams, input: PageLoadInput) {
  let result: LoaderResult<PageData<P>>;
  try {
    result = await loaderOf(
      route.page,
      route.id,
    )({
      params,
      // The page sees only the query its route reads: that is all its cache key holds, so all a stored page may hold.
      query: new URLSearchParams(input.address.query),
      site: input.site,
      content: input.content,
      now: input.now,
      account: input.account,
    });
  } catch (error) {
    input.onLoaderError(error);
    if (error instanceof ContentUnavailableError) return statusData(input, 503, UNAVAILABLE_MESSAGE);
    throw error;
  }
  if (result.kind === 'redirect') throw redirect(result.location, result.permanent ? 301 : 302);
  if (result.kind === 'not-found') return statusData(input, 404);
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
  const checked = unavailableIfNoData(input.site, page, input.pageCalls);
  return checked === page ? page : data(checked, { status: checked.status });
}

const staticHandler = createStaticHandler(createPortalRoutes(routeLoader));

/** The routes React Router renders a document's tree from (the static router is made over these). */
export const dataRoutes = staticHandler.dataRoutes;

/** A fixed origin for the query's request: routes match by path; the site is in the page load. */
const QUERY_ORIGIN = 'http://portal.invalid';

/**
 * The address as React Router reads it: a path segment whose escapes are not UTF-8 (`/%C0%AF`, a not-found page)
 * gets its `%` escaped, so the router matches the same literal text it would fall back to anyway, without a
 * console.warn on stderr (outside the JSON log) for every such request a reader sends.
 */
function routerAddress(address: string): string {
  const queryAt = address.indexOf('?');
  const path = queryAt < 0 ? address : address.slice(0, queryAt);
  const safe = path
    .split('/')
    .map((segment) => (decodesAsUtf8(segment) ? segment : segment.replaceAll('%', '%25')))
    .join('/');
  return queryAt < 0 ? safe : safe + address.slice(queryAt);
}

function isPageState(value: unknown): value is PageState {
  return typeof value === 'object' && value !== null && 'page' in value && 'status' in value && 'head' in value;
}

/** The page React Router's handler ran for the address: its state (the 500 page when a loader threw) and context. */
export async function routePage(load: PageLoad): Promise<RoutedPage> {
  const { address, site, now } = load.input;
  if (address.match.kind === 'redirect') return { kind: 'redirect', location: address.match.location, permanent: false };
  const router = await staticHandler.query(new Request(QUERY_ORIGIN + routerAddress(address.path)), { requestContext: load });
  if (router instanceof Response) {
    return { kind: 'redirect', location: router.headers.get('Location') ?? '/', permanent: router.status === 301 || router.status === 308 };
  }
  if (router.errors) return { kind: 'page', page: statusPage(site, address.path, router.statusCode, TEXT.errorDefault, now), router };
  const leaf = router.matches.at(-1);
  const page: unknown = leaf ? router.loaderData[leaf.route.id] : undefined;
  if (!isPageState(page)) throw new Error(`no page state for ${address.path}`);
  return { kind: 'page', page, router };
}

/**
 * The context of a render that failed after its loaders ran: React Router shows the error at the deepest route
 * with an error boundary (the page's own), as it does for a loader that throws. The status is 500.
 */
export function failedRenderContext(router: StaticHandlerContext, error: unknown): StaticHandlerContext {
  const leaf = router.matches.at(-1);
  return { ...router, statusCode: 500, errors: leaf ? { [leaf.route.id]: error } : null };
}

/**
 * The context React Router's handler ends on for a page already loaded, made from its state as the browser's
 * hydration is (client/entry.tsx): the bench's floor and tests render a stored page's state with it.
 */
export function contextOfLoadedPage(page: PageState): StaticHandlerContext {
  const url = new URL(QUERY_ORIGIN + routerAddress(page.path));
  const location = { pathname: url.pathname, search: url.search, hash: '', state: null, key: 'default' };
  const matches = matchRoutes(dataRoutes, location) ?? [];
  const loaderData = Object.fromEntries(matches.flatMap(({ route }) => (route.loader ? [[route.id, page]] : [])));
  return { basename: '/', location, matches, loaderData, actionData: null, errors: null, statusCode: page.status, loaderHeaders: {}, actionHeaders: {} };
}
