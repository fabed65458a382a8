/**
 * The one route table shared by the Express server and the client router. Patterns use React Router's
 * syntax (`/:param`, `/:param?`) and are matched as its matchPath did, by a small compiler of our own (compiled
 * once per route, and no router library in the browser bundle: docs/build.md); each param has a rule, so
 * `/detail/12/abc` is not a detail page but a 404, whatever the page code would have done with it.
 *
 * Browser-safe by design: a route says which page it shows, never how its data is loaded. The loaders are
 * server code (they read the content API), mapped by route id in server/render/page-loaders.ts, and
 * scripts/build.mjs fails when one of them becomes reachable from the browser entry.
 */
import type { PageId } from './page-data';
import type { RouteParams } from './route-params';

export type { RouteParams } from './route-params';
export { idParam } from './route-params';
export type { PageId } from './page-data';

export type ParamRule = 'id' | 'slug' | 'searchWord' | 'searchType' | 'text';

export type LayoutKind = 'default' | 'detail' | 'reading' | 'smallFooter' | 'siteMap';

interface RouteBase<Id extends string> {
  /** Stable id, unique in the table. */
  id: Id;
  path: string;
  params: Readonly<Record<string, ParamRule>>;
  layout: LayoutKind;
}

/** A route that shows a page. */
export interface PageRoute<Id extends string = string, P extends PageId = PageId> extends RouteBase<Id> {
  /** The route name the site has always used (several routes may share one). */
  name: string;
  page: P;
  /** Query parameters the page reads; every other parameter is dropped from its cache key. */
  query?: readonly string[];
  /**
   * The page shows a signed-in reader their own data: it is rendered for them, privately, never answered from
   * the shared cache (a visitor's copy of it is shared like any page). Every other page is the same for all.
   */
  perReader?: boolean;
}

/** A family whose required id is missing (`/V1`): matched, nameless, so it redirects home (the old site did the same). */
export interface BareRoute<Id extends string = string> extends RouteBase<Id> {
  name?: undefined;
  page?: undefined;
  query?: undefined;
}

export type RouteDef = PageRoute | BareRoute;

interface PageSpec<P extends PageId> {
  page: P;
  query?: readonly string[];
  layout?: LayoutKind;
  perReader?: boolean;
}

const PAGED = ['page'] as const;

/** 1..2^31-1 written plainly: no sign, exponent, leading zero or padding. */
const ID_PATTERN = /^[1-9]\d{0,9}$/;
const MAX_ID = 2147483647;

const PARAM_RULES: Record<ParamRule, (value: string) => boolean> = {
  id: (value) => ID_PATTERN.test(value) && Number(value) <= MAX_ID,
  slug: (value) => /^[A-Za-z0-9_-]{1,64}$/.test(value),
  // URL-safe or standard base64 of a UTF-8 keyword; decoding (and rejecting bad input) is the search page's job.
  searchWord: (value) => /^[A-Za-z0-9+/_=-]{1,1024}$/.test(value),
  searchType: (value) => value === '1' || value === '2',
  text: (value) => value.length > 0 && value.length <= 200,
};

const NO_PARAMS: Readonly<Record<string, ParamRule>> = Object.freeze({});

function pageRoute<const Id extends string, const P extends PageId>(
  id: Id,
  name: string,
  path: string,
  params: Readonly<Record<string, ParamRule>>,
  spec: PageSpec<P>,
): PageRoute<Id, P> {
  const { page, query, layout = 'default', perReader } = spec;
  return { id, name, path, params, layout, page, ...(query ? { query } : {}), ...(perReader ? { perReader } : {}) };
}

function fixed<const Id extends string, const P extends PageId>(id: Id, path: string, spec: PageSpec<P>): PageRoute<Id, P> {
  return pageRoute(id, id, path, NO_PARAMS, spec);
}

function bare<const Id extends string>(id: Id, path: string): BareRoute<`${Id}-bare`> {
  return { id: `${id}-bare`, path, params: NO_PARAMS, layout: 'default' };
}

function withId<const S extends string, const P extends PageId>(segment: S, spec: PageSpec<P>): PageRoute<`${S}-id`, P> {
  return pageRoute(`${segment}-id`, `${segment}-id`, `/${segment}/:id`, { id: 'id' }, spec);
}

/** /{menu?}/{sub?}/{segment}/{id}: the forms with a menu prefix; the plain form is in ROUTES via withId. */
function underMenu<const S extends string, const P extends PageId>(
  segment: S,
  spec: PageSpec<P>,
): [PageRoute<`menu-sub-${S}-id`, P>, PageRoute<`menu-${S}-id`, P>] {
  return [
    pageRoute(`menu-sub-${segment}-id`, `menu-sub-${segment}-id`, `/:menu/:sub/${segment}/:id`, { menu: 'slug', sub: 'slug', id: 'id' }, spec),
    pageRoute(`menu-${segment}-id`, `menu-${segment}-id`, `/:menu/${segment}/:id`, { menu: 'slug', id: 'id' }, spec),
  ];
}

const CATEGORY_LIST = { page: 'categoryList', query: PAGED } as const;
const TOPIC_DETAIL = { page: 'topicDetail' } as const;
const VIDEO = { page: 'video' } as const;
const LIVE = { page: 'live' } as const;
const NEWSPAPER = { page: 'newspaper', query: ['date', 'page'] } as const;
const SHELF = { page: 'newspaperShelf' } as const;
const INFO = { page: 'info' } as const;
const INFO_SMALL_FOOTER = { page: 'info', layout: 'smallFooter' } as const;
const ID_PAIR = { catid: 'id', id: 'id' } as const;

export const ROUTES = [
  pageRoute('home', 'home', '/', NO_PARAMS, { page: 'home' }),
  pageRoute('home-alias', 'home', '/home', NO_PARAMS, { page: 'home' }),
  fixed('about', '/about', INFO),
  fixed('contribute', '/contribute', INFO_SMALL_FOOTER),
  fixed('electronic', '/electronic', SHELF),
  fixed('hd', '/hd', { page: 'gallery', query: PAGED }),
  fixed('headlineNews', '/headlineNews', { page: 'articleFeed', query: PAGED }),
  fixed('license', '/license', { page: 'license' }),
  fixed('moveInto', '/moveInto', INFO_SMALL_FOOTER),
  fixed('newspaperBoard', '/newspaperBoard', SHELF),
  fixed('personalCenter', '/personalCenter', { page: 'personalCenter', query: ['tab', 'page'], perReader: true }),
  fixed('poster', '/poster', { page: 'gallery', query: PAGED }),
  fixed('seekingReport', '/seekingReport', INFO_SMALL_FOOTER),
  fixed('siteMap', '/siteMap', { page: 'siteMap', layout: 'siteMap' }),
  fixed('specialColumn', '/specialColumn', { page: 'specialColumn', query: PAGED }),

  withId('liveStreamDetail', LIVE),
  withId('newsTrack', { page: 'newsTrack' }),
  withId('readNewspapers_v2', NEWSPAPER),
  withId('readNewspapers', NEWSPAPER),
  withId('shike', { page: 'shike', query: PAGED }),
  withId('specialColumnDetail', { page: 'articleFeed', query: PAGED }),
  withId('topic', { page: 'topicList', query: PAGED }),
  withId('topicDetail', TOPIC_DETAIL),
  withId('V1', CATEGORY_LIST),
  withId('V2', CATEGORY_LIST),
  withId('videoAlbum', { page: 'videoAlbum', query: ['v'] }),

  pageRoute('detail', 'detail-catid-id', '/detail/:catid?/:id?', ID_PAIR, { page: 'detail', layout: 'detail' }),
  pageRoute('detailReading', 'detailReading-catid-id', '/detailReading/:catid?/:id?', ID_PAIR, { page: 'reading', layout: 'reading' }),
  pageRoute('search', 'search-word-type', '/search/:word?/:type?', { word: 'searchWord', type: 'searchType' }, { page: 'search', query: PAGED }),
  pageRoute('tagDetail', 'tagDetail-id', '/tagDetail/:id?/:title?', { id: 'id', title: 'text' }, { page: 'articleFeed', query: PAGED }),
  pageRoute('video', 'video-catid-id', '/video/:catid/:id', ID_PAIR, VIDEO),
  pageRoute('video-id', 'video-id', '/video/:id', { id: 'id' }, VIDEO),
  pageRoute('videoLive', 'videoLive-catid-id', '/videoLive/:catid/:id', ID_PAIR, LIVE),
  pageRoute('videoLive-id', 'videoLive-id', '/videoLive/:id', { id: 'id' }, LIVE),
  ...underMenu('topicDetail', TOPIC_DETAIL),
  ...underMenu('V1', CATEGORY_LIST),
  ...underMenu('V2', CATEGORY_LIST),

  bare('liveStreamDetail', '/liveStreamDetail'),
  bare('newsTrack', '/newsTrack'),
  bare('readNewspapers_v2', '/readNewspapers_v2'),
  bare('readNewspapers', '/readNewspapers'),
  bare('shike', '/shike'),
  bare('specialColumnDetail', '/specialColumnDetail'),
  bare('topic', '/topic'),
  bare('topicDetail', '/topicDetail'),
  bare('V1', '/V1'),
  bare('V2', '/V2'),
  bare('videoAlbum', '/videoAlbum'),
  bare('video', '/video'),
  bare('videoLive', '/videoLive'),
] as const satisfies readonly RouteDef[];

/** The routes that show a page, each with its literal id and page: the server's loader table is keyed by them. */
export type TablePageRoute = Extract<(typeof ROUTES)[number], { page: PageId }>;
export type PageRouteId = TablePageRoute['id'];
/** The page a route of the table shows, by the route's id. */
export type PageOfRoute<Id extends PageRouteId> = Extract<TablePageRoute, { id: Id }>['page'];

export type RouteMatch = { kind: 'page'; route: TablePageRoute; params: RouteParams } | { kind: 'redirect'; location: string } | { kind: 'not-found' };

function paramsAreValid(route: RouteDef, params: RouteParams): boolean {
  return Object.entries(route.params).every(([name, rule]) => {
    const value = params[name];
    return value === undefined || PARAM_RULES[rule](value);
  });
}

/** Percent-decoding that fails closed: malformed escapes are a miss, never an exception. */
function safeDecode(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function decodeParams(raw: Readonly<Record<string, string | undefined>>): RouteParams | null {
  const decoded: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw)) {
    const text = safeDecode(value);
    if (value !== undefined && text === undefined) return null;
    decoded[name] = text;
  }
  return decoded;
}

interface CompiledPattern {
  matcher: RegExp;
  params: ReadonlyArray<{ name: string; optional: boolean }>;
}

/**
 * A pattern as a case-sensitive regular expression matching the whole pathname (trailing slashes allowed), the
 * way React Router's matchPath compiled it: `/:name` is one non-empty segment, `/:name?` an optional one.
 */
export function compilePattern(path: string): CompiledPattern {
  const params: Array<{ name: string; optional: boolean }> = [];
  const source = path
    .replace(/\/*$/, '')
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:([\w-]+)(\?)?/g, (_match, name: string, optional: string | undefined) => {
      params.push({ name, optional: optional !== undefined });
      return optional !== undefined ? '(?:/([^\\/]*))?' : '/([^\\/]+)';
    });
  return { matcher: new RegExp(`^${source}\\/*$`), params };
}

/** The raw (still percent-encoded) params of a pathname the pattern matches, or null. */
function matchPattern(pattern: CompiledPattern, pathname: string): Record<string, string | undefined> | null {
  const found = pattern.matcher.exec(pathname);
  if (!found) return null;
  const params: Record<string, string | undefined> = {};
  pattern.params.forEach(({ name, optional }, index) => {
    const value = found[index + 1];
    params[name] = optional && !value ? undefined : (value ?? '').replace(/%2F/g, '/');
  });
  return params;
}

/** The table with each pattern compiled once, in the table's order. */
const COMPILED_ROUTES = ROUTES.map((route) => ({ route, pattern: compilePattern(route.path) }));

/**
 * Every link a page renders asks which route its path is (shared/site-links.ts), the same few hundred paths on
 * page after page: one walk of the table's patterns per distinct path, then a Map lookup. A match
 * is a pure function of the path and the table, and nothing writes to one (params are frozen). Paths
 * are kept only up to MEMO_PATH_LENGTH, so the memo stays small whatever is asked for.
 */
const MATCH_MEMO_SIZE = 4096;
const MEMO_PATH_LENGTH = 200;
const matches = new Map<string, RouteMatch>();

/**
 * Pathname → what to serve. The first route whose pattern matches and whose params pass their rules wins; a
 * pattern that matches with bad params does not stop the search (`/V1/abc` may still be a `/{menu}/V1`-less
 * miss), and when nothing wins the answer is 404.
 */
export function matchRoute(pathname: string): RouteMatch {
  const known = matches.get(pathname);
  if (known) return known;
  const match = firstMatch(pathname);
  if (pathname.length > MEMO_PATH_LENGTH) return match;
  // Bounded: a crawler's stream of distinct paths empties it now and then instead of growing it.
  if (matches.size >= MATCH_MEMO_SIZE) matches.clear();
  matches.set(pathname, match);
  return match;
}

function firstMatch(pathname: string): RouteMatch {
  for (const { route, pattern } of COMPILED_ROUTES) {
    const found = matchPattern(pattern, pathname);
    if (!found) continue;
    const params = decodeParams(found);
    if (!params || !paramsAreValid(route, params)) continue;
    if (route.page === undefined) return { kind: 'redirect', location: '/' };
    return { kind: 'page', route, params: Object.freeze(params) };
  }
  return { kind: 'not-found' };
}

export function routeById(id: string): RouteDef | undefined {
  return ROUTES.find((route: RouteDef) => route.id === id);
}

/** Links the pages build, in one place so every href matches a route of the table. */
export const href = {
  home: (): string => '/',
  detail: (catid: number, id: number): string => `/detail/${catid}/${id}`,
  detailReading: (catid: number, id: number): string => `/detailReading/${catid}/${id}`,
  search: (encodedWord: string, type: number): string => `/search/${encodedWord}/${type}`,
  categoryList: (catid: number): string => `/V1/${catid}`,
  topicDetail: (id: number): string => `/topicDetail/${id}`,
  withPage: (path: string, page: number): string => (page > 1 ? `${path}${path.includes('?') ? '&' : '?'}page=${page}` : path),
  video: (catid: number, id: number): string => `/video/${catid}/${id}`,
  live: (id: number): string => `/liveStreamDetail/${id}`,
  videoAlbum: (id: number): string => `/videoAlbum/${id}`,
  newsTrack: (id: number): string => `/newsTrack/${id}`,
  newspaper: (catid: number, date?: string, page?: number): string => {
    const query = new URLSearchParams();
    if (date) query.set('date', date);
    if (page && page > 1) query.set('page', String(page));
    const text = query.toString();
    return `/readNewspapers/${catid}${text ? `?${text}` : ''}`;
  },
  tag: (id: number, name: string): string => `/tagDetail/${id}/${encodeURIComponent(name)}`,
  specialColumnDetail: (id: number): string => `/specialColumnDetail/${id}`,
  /** A category's RSS 2.0 feed (server/seo, not a page of the table). */
  rss: (catid: number): string => `/rss/${catid}.xml`,
} as const;
