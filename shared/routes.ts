/**
 * The one route table of the server and the browser, built when this module loads from each page's route.ts
 * (shared/pages/index.ts). Patterns use React Router's syntax (`/:param`, `/:param?`) and React Router's
 * matchRoutes matches them (`findRoute`), with a rule per param on top, so `/detail/12/abc` is a 404, not a
 * detail page, before any page code runs; shared/ui/routes.tsx renders from the same table. A route names its
 * page, never how its data is loaded: the loaders are server code (server/pages/index.ts). Blocks and pages link
 * with `href`, so nothing here imports a component back.
 */
import { matchRoutes, type RouteObject } from 'react-router-dom';
import type { PageId, PageRouteIdOf } from './page-data';
import type { BareRoute, PageRoute, ParamRule, RouteDef } from './pages/define';
import * as pageList from './pages';
import type { RouteParams } from './route-params';
import { SEARCH_TYPE_RECENT } from './constants';
import { decodeKeyword, encodeKeyword } from './search-keyword';

export type { RouteParams } from './route-params';
export { idParam } from './route-params';
export type { PageId } from './page-data';
export type { BareRoute, LayoutKind, PageRoute, ParamRule, RouteDef } from './pages/define';

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

/** The routes that show a page, each with its page's route ids and its page: the server's loaders are keyed by them. */
export type TablePageRoute = { [P in PageId]: PageRoute<PageRouteIdOf<P>, P> }[PageId];
export type PageRouteId = TablePageRoute['id'];

/**
 * Where a route stands in the table: routes that show a page first, those whose path starts with a fixed segment
 * before those that start with a parameter (`/{menu}/V1/{id}`, which would otherwise take `/search/V1/1`), then
 * the bare routes in the same order, so a bare route has only the paths no page takes (`/video/{catid}` is
 * `/video/{id}`'s). Routes of one rank never match the same path, so within a rank the list's order is kept but
 * does not matter.
 */
function rankOf(route: RouteDef): number {
  const paramFirst = route.path.startsWith('/:') ? 1 : 0;
  return (route.page === undefined ? 2 : 0) + paramFirst;
}

/** The param that says which page a route shows: a route's path without it names no page. */
const ID_PARAM = 'id';

/** A path's shape, its param names and optional marks left out: two routes of one shape match the same paths. */
function shapeOf(path: string): string {
  return path.replace(/\/:[\w-]+\??/g, '/:');
}

/**
 * Every page route's path without its id (and whatever follows it), when that leaves a fixed segment and is not
 * another page's shape: `/V1`, `/{menu}/{sub}/V1`, `/detail/{catid?}`, `/tagDetail`, `/videoLive` (not
 * `/videoLive/{catid}`, which is `/videoLive/{id}`). Such a path names no page, a route without a name in the
 * spec's words, so it redirects home, as the old site did, all of them alike (issue 38, item 5: `/detail`,
 * `/detailReading`, `/tagDetail`, `/{menu}/V1` and `/detail/{catid}` were 404s while `/V1` went home). A route
 * without an id (`/search/{word?}`, whose root is the empty search page) has none. Derived, so a new page gets it.
 */
function bareRoutes(routes: readonly PageRoute[]): BareRoute[] {
  const pageShapes = new Set(routes.map((route) => shapeOf(route.path)));
  const bare = new Map<string, BareRoute>();
  for (const route of routes) {
    const at = new RegExp(`/:${ID_PARAM}\\??(?=/|$)`).exec(route.path);
    if (!at || route.params[ID_PARAM] !== 'id') continue;
    const path = route.path.slice(0, at.index);
    if (!/\/[^/:]/.test(path) || pageShapes.has(shapeOf(path)) || bare.has(path)) continue;
    const names = [...path.matchAll(/:([\w-]+)/g)].map((found) => found[1]!);
    const params = Object.freeze(Object.fromEntries(names.map((name) => [name, route.params[name]!])));
    bare.set(path, { id: `${route.id}-bare`, path, params, layout: 'default' });
  }
  return [...bare.values()];
}

type TableRoute = TablePageRoute | BareRoute;

interface Table {
  routes: readonly TableRoute[];
  byId: ReadonlyMap<string, TableRoute>;
  /**
   * The routes as React Router's route objects (matched case-sensitively, as the portal's paths are), grouped
   * by their first segment: a path is matched against its own group and the routes that start with a param.
   */
  objectsByFirstSegment: ReadonlyMap<string, readonly RouteObject[]>;
  paramFirst: readonly RouteObject[];
}

/** A path's first segment: `detail` of `/detail/1/2`. */
function firstSegmentOf(path: string): string {
  return path.split('/', 2)[1] ?? '';
}

/**
 * React Router flattens and ranks the routes it is given on every call (about 300 µs for the whole table); most
 * paths can only match the few routes of their first segment, so only those, and the param-first ones, are given.
 * Ranking a subset keeps the order React Router gives the whole table.
 */
function groupByFirstSegment(routes: readonly TableRoute[]): Pick<Table, 'objectsByFirstSegment' | 'paramFirst'> {
  const groups = new Map<string, RouteObject[]>();
  const paramFirst: RouteObject[] = [];
  for (const route of routes) {
    const object: RouteObject = { id: route.id, path: route.path, caseSensitive: true };
    if (route.path.startsWith('/:')) {
      paramFirst.push(object);
      for (const group of groups.values()) group.push(object);
      continue;
    }
    const key = firstSegmentOf(route.path);
    groups.set(key, [...(groups.get(key) ?? paramFirst), object]);
  }
  return { objectsByFirstSegment: groups, paramFirst };
}

/** The routes of every page of the list, typed by page: the list's entries are checked against page-data.ts. */
const PAGE_ROUTE_MODULES: { readonly [P in PageId]: { routes: ReadonlyArray<PageRoute<PageRouteIdOf<P>, P>> } } = pageList;

/** The table in the order it is listed (React Router ranks the routes itself; this order breaks its ties). */
function buildTable(): Table {
  const pageRoutes = Object.values(PAGE_ROUTE_MODULES).flatMap((module): readonly TablePageRoute[] => module.routes);
  const routes: TableRoute[] = [...pageRoutes, ...bareRoutes(pageRoutes)].sort((a, b) => rankOf(a) - rankOf(b));
  return { routes, byId: new Map(routes.map((route) => [route.id, route])), ...groupByFirstSegment(routes) };
}

const TABLE = buildTable();

/** Every route, in the table's order. */
export function routeTable(): readonly TableRoute[] {
  return TABLE.routes;
}

export type RouteMatch = { kind: 'page'; route: TablePageRoute; params: RouteParams } | { kind: 'redirect'; location: string } | { kind: 'not-found' };

function paramsAreValid(route: RouteDef, params: RouteParams): boolean {
  return Object.entries(route.params).every(([name, rule]) => {
    const value = params[name];
    return value === undefined || PARAM_RULES[rule](value);
  });
}

/** Whether every escape of `text` is UTF-8: React Router would match a path that is not undecoded (and warn). */
export function decodesAsUtf8(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every link a page renders asks which route its path is (shared/site-links.ts), the same few hundred paths on
 * page after page: one match per distinct path, then a Map lookup. A match is a pure function of the path and
 * the table, and nothing writes to one (params are frozen). Paths are kept only up to MEMO_PATH_LENGTH, so the
 * memo stays small whatever is asked for.
 */
const MATCH_MEMO_SIZE = 4096;
const MEMO_PATH_LENGTH = 200;
const matches = new Map<string, RouteMatch>();

/**
 * Pathname → what to serve: the route React Router's matchRoutes ranks first, as the browser's router does. Its
 * params must pass their rules or the path is a 404 (`/detail/V1/12` is no detail page, and no other page either:
 * the browser would show it as the detail route).
 */
export function findRoute(pathname: string): RouteMatch {
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
  if (!decodesAsUtf8(pathname)) return { kind: 'not-found' };
  const candidates = TABLE.objectsByFirstSegment.get(decodeURIComponent(firstSegmentOf(pathname))) ?? TABLE.paramFirst;
  const found = matchRoutes([...candidates], { pathname })?.[0];
  const route = found?.route.id === undefined ? undefined : TABLE.byId.get(found.route.id);
  if (!found || !route) return { kind: 'not-found' };
  const params: RouteParams = { ...found.params };
  if (!paramsAreValid(route, params)) return { kind: 'not-found' };
  // A page route with its optional id left out (`/detail`, `/detail/12`) names no page: its bare form, home.
  if (route.page === undefined || (route.params[ID_PARAM] !== undefined && params[ID_PARAM] === undefined)) return { kind: 'redirect', location: '/' };
  return { kind: 'page', route, params: Object.freeze(params) };
}

/**
 * One path per page, for params whose rule admits many spellings of one value (docs/security.md, "One path per
 * page"): a search keyword is spelt as `encodeKeyword` writes it (URL-safe base64, no padding, of the trimmed
 * keyword), and one that is not base64 of a keyword is no page; a tag page's title is reader text the page never
 * reads (it shows the CMS's name), so the page's one path has none. A rule missing here has one spelling already
 * (ids and types are checked digit for digit, menu slugs are not decoded).
 * `undefined` drops the segment; null means the path is no page.
 */
const CANONICAL_SPELLING: Partial<Record<ParamRule, (value: string) => string | undefined | null>> = {
  searchWord: (value) => {
    const keyword = decodeKeyword(value);
    return keyword === null ? null : encodeKeyword(keyword);
  },
  text: () => undefined,
};

/** A param left out that the page reads as a default: spelt out, so `/search/{word}` and `/search/{word}/1` are one page. */
const SPELT_DEFAULT: Partial<Record<ParamRule, string>> = { searchType: String(SEARCH_TYPE_RECENT) };

export type RouteSpelling = { kind: 'canonical' } | { kind: 'respelt'; path: string } | { kind: 'not-a-page' };

/**
 * Whether a pathname already in its canonical spelling (shared/canonical-path.ts) is also its page's one path:
 * 'respelt' names the path the page has instead (a 301 at the edge), 'not-a-page' says a param has no valid
 * spelling (a 404). Anything that is not a page (nothing, a bare family root) is 'canonical': not this rule's.
 */
export function routeSpelling(pathname: string): RouteSpelling {
  const match = findRoute(pathname);
  // Most routes (every request passes here, cached hits too) have no such param: one lookup, nothing built.
  if (match.kind !== 'page' || !hasSpelledParams(match.route)) return { kind: 'canonical' };
  const path = spelledPath(match.route, match.params);
  if (path === null) return { kind: 'not-a-page' };
  return path === pathname.replace(/(.)\/+$/, '$1') ? { kind: 'canonical' } : { kind: 'respelt', path };
}

/** Per route, once: whether any of its params has a spelling of its own. */
const SPELLED = new WeakMap<RouteDef, boolean>();

function hasSpelledParams(route: RouteDef): boolean {
  let spelled = SPELLED.get(route);
  if (spelled === undefined) {
    spelled = Object.values(route.params).some((rule) => rule in CANONICAL_SPELLING || rule in SPELT_DEFAULT);
    SPELLED.set(route, spelled);
  }
  return spelled;
}

/** The route's path with each param in its one spelling; a segment after a dropped one cannot stand, so it goes too. */
function spelledPath(route: RouteDef, params: RouteParams): string | null {
  const segments: string[] = [];
  for (const segment of route.path.split('/').slice(1)) {
    if (!segment.startsWith(':')) {
      segments.push(segment);
      continue;
    }
    const name = segment.replace(/^:/, '').replace(/\?$/, '');
    const rule = route.params[name];
    const raw = params[name] ?? (rule ? SPELT_DEFAULT[rule] : undefined);
    const spell = rule ? CANONICAL_SPELLING[rule] : undefined;
    const spelt = raw === undefined || !spell ? raw : spell(raw);
    if (spelt === null) return null;
    if (spelt === undefined) break;
    segments.push(encodeURIComponent(spelt));
  }
  return `/${segments.join('/')}`;
}

export function routeById(id: string): RouteDef | undefined {
  return TABLE.byId.get(id);
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
  /** A tag's page: its one path has no title (routeSpelling); the CMS's name is what the page shows. */
  tag: (id: number): string => `/tagDetail/${id}`,
  specialColumnDetail: (id: number): string => `/specialColumnDetail/${id}`,
  /** A category's RSS 2.0 feed (server/seo, not a page of the table). */
  rss: (catid: number): string => `/rss/${catid}.xml`,
} as const;
