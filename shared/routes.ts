/**
 * The one route table (SPEC §2), shared by the Express server and the client router. Patterns use React
 * Router's syntax and are matched with its matchPath; each param has a rule, so `/detail/12/abc` is not a
 * detail page but a 404, whatever the page code would have done with it.
 */
import { matchPath } from 'react-router-dom';
import { loadColumnist, loadHeadlineNews, loadTagDetail } from './loaders/article-feeds';
import { loadCategoryList } from './loaders/category-list';
import { galleryLoader } from './loaders/gallery';
import { loadLive } from './loaders/live';
import { loadShike, loadVideo, loadVideoAlbum } from './loaders/media';
import { loadNewsTrack } from './loaders/news-track';
import { loadNewspaper, loadNewspaperShelf } from './loaders/newspaper';
import { loadSearch } from './loaders/search';
import { loadDetail } from './loaders/detail';
import { loadHome } from './loaders/home';
import { loadReading } from './loaders/reading';
import { infoPageLoader } from './loaders/info-page';
import { loadPersonalCenter } from './loaders/personal-center';
import { loadLicense, loadSiteMap } from './loaders/simple-pages';
import { loadSpecialColumn } from './loaders/special-column';
import { loadTopicDetail, loadTopicList } from './loaders/topics';
import type { Loader } from './loaders/types';
import type { RouteParams } from './route-params';

export type { RouteParams } from './route-params';
export { idParam } from './route-params';

export type ParamRule = 'id' | 'slug' | 'searchWord' | 'searchType' | 'text';

export type LayoutKind = 'default' | 'detail' | 'reading' | 'smallFooter' | 'siteMap';

/** Pages implemented in client/pages; a route without one is matched and validated but not yet served. */
export type PageId =
  | 'home'
  | 'detail'
  | 'reading'
  | 'categoryList'
  | 'topicList'
  | 'topicDetail'
  | 'info'
  | 'license'
  | 'siteMap'
  | 'specialColumn'
  | 'personalCenter'
  | 'search'
  | 'articleFeed'
  | 'newsTrack'
  | 'gallery'
  | 'video'
  | 'videoAlbum'
  | 'shike'
  | 'live'
  | 'newspaper'
  | 'newspaperShelf';

export interface RouteDef {
  /** Stable id, unique in the table. */
  id: string;
  /** SPEC's route name; a matched route without one redirects to '/'. */
  name?: string;
  path: string;
  params: Readonly<Record<string, ParamRule>>;
  layout: LayoutKind;
  page?: PageId;
  /** Runs on the server (document render and client navigations' data requests) through the data cache. */
  loader?: Loader<unknown>;
  /** Query parameters the page reads; every other parameter is dropped from its cache key. */
  query?: readonly string[];
}

interface PageSpec {
  page: PageId;
  loader: Loader<unknown>;
  query?: readonly string[];
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

function fixed(id: string, path: string, layout: LayoutKind = 'default', spec?: PageSpec): RouteDef {
  return { id, name: id, path, params: NO_PARAMS, layout, ...spec };
}

/** A family whose required id is missing (`/V1`): matched, nameless, so it redirects home as SPEC §2 says. */
function bare(id: string, path: string): RouteDef {
  return { id: `${id}-bare`, path, params: NO_PARAMS, layout: 'default' };
}

function withId(segment: string, layout: LayoutKind = 'default', spec?: PageSpec): RouteDef {
  return { id: `${segment}-id`, name: `${segment}-id`, path: `/${segment}/:id`, params: { id: 'id' }, layout, ...spec };
}

/** /{menu?}/{sub?}/{segment}/{id}: the forms with a menu prefix; the plain form is in ROUTES via withId. */
function underMenu(segment: string, spec?: PageSpec): RouteDef[] {
  return [
    {
      id: `menu-sub-${segment}-id`,
      name: `menu-sub-${segment}-id`,
      path: `/:menu/:sub/${segment}/:id`,
      params: { menu: 'slug', sub: 'slug', id: 'id' },
      layout: 'default',
      ...spec,
    },
    {
      id: `menu-${segment}-id`,
      name: `menu-${segment}-id`,
      path: `/:menu/${segment}/:id`,
      params: { menu: 'slug', id: 'id' },
      layout: 'default',
      ...spec,
    },
  ];
}

const CATEGORY_LIST: PageSpec = { page: 'categoryList', loader: loadCategoryList, query: PAGED };
const TOPIC_DETAIL: PageSpec = { page: 'topicDetail', loader: loadTopicDetail };
const VIDEO: PageSpec = { page: 'video', loader: loadVideo };
const LIVE: PageSpec = { page: 'live', loader: loadLive };
const NEWSPAPER: PageSpec = { page: 'newspaper', loader: loadNewspaper, query: ['date', 'page'] };
const SHELF: PageSpec = { page: 'newspaperShelf', loader: loadNewspaperShelf };
const info = (kind: Parameters<typeof infoPageLoader>[0]): PageSpec => ({ page: 'info', loader: infoPageLoader(kind) });

export const ROUTES: readonly RouteDef[] = [
  { id: 'home', name: 'home', path: '/', params: NO_PARAMS, layout: 'default', page: 'home', loader: loadHome },
  { id: 'home-alias', name: 'home', path: '/home', params: NO_PARAMS, layout: 'default', page: 'home', loader: loadHome },
  fixed('about', '/about', 'default', info('about')),
  fixed('contribute', '/contribute', 'smallFooter', info('contribute')),
  fixed('electronic', '/electronic', 'default', SHELF),
  fixed('hd', '/hd', 'default', { page: 'gallery', loader: galleryLoader('hd'), query: PAGED }),
  fixed('headlineNews', '/headlineNews', 'default', { page: 'articleFeed', loader: loadHeadlineNews, query: PAGED }),
  fixed('license', '/license', 'default', { page: 'license', loader: loadLicense }),
  fixed('moveInto', '/moveInto', 'smallFooter', info('moveInto')),
  fixed('newspaperBoard', '/newspaperBoard', 'default', SHELF),
  fixed('personalCenter', '/personalCenter', 'default', { page: 'personalCenter', loader: loadPersonalCenter, query: ['tab', 'page'] }),
  fixed('poster', '/poster', 'default', { page: 'gallery', loader: galleryLoader('poster'), query: PAGED }),
  fixed('seekingReport', '/seekingReport', 'smallFooter', info('seekingReport')),
  fixed('siteMap', '/siteMap', 'siteMap', { page: 'siteMap', loader: loadSiteMap }),
  fixed('specialColumn', '/specialColumn', 'default', { page: 'specialColumn', loader: loadSpecialColumn, query: PAGED }),

  withId('liveStreamDetail', 'default', LIVE),
  withId('newsTrack', 'default', { page: 'newsTrack', loader: loadNewsTrack }),
  withId('readNewspapers_v2', 'default', NEWSPAPER),
  withId('readNewspapers', 'default', NEWSPAPER),
  withId('shike', 'default', { page: 'shike', loader: loadShike, query: PAGED }),
  withId('specialColumnDetail', 'default', { page: 'articleFeed', loader: loadColumnist, query: PAGED }),
  withId('topic', 'default', { page: 'topicList', loader: loadTopicList, query: PAGED }),
  withId('topicDetail', 'default', TOPIC_DETAIL),
  withId('V1', 'default', CATEGORY_LIST),
  withId('V2', 'default', CATEGORY_LIST),
  withId('videoAlbum', 'default', { page: 'videoAlbum', loader: loadVideoAlbum, query: ['v'] }),

  {
    id: 'detail',
    name: 'detail-catid-id',
    path: '/detail/:catid?/:id?',
    params: { catid: 'id', id: 'id' },
    layout: 'detail',
    page: 'detail',
    loader: loadDetail,
  },
  {
    id: 'detailReading',
    name: 'detailReading-catid-id',
    path: '/detailReading/:catid?/:id?',
    params: { catid: 'id', id: 'id' },
    layout: 'reading',
    page: 'reading',
    loader: loadReading,
  },
  {
    id: 'search',
    name: 'search-word-type',
    path: '/search/:word?/:type?',
    params: { word: 'searchWord', type: 'searchType' },
    layout: 'default',
    page: 'search',
    loader: loadSearch,
    query: PAGED,
  },
  {
    id: 'tagDetail',
    name: 'tagDetail-id',
    path: '/tagDetail/:id?/:title?',
    params: { id: 'id', title: 'text' },
    layout: 'default',
    page: 'articleFeed',
    loader: loadTagDetail,
    query: PAGED,
  },
  {
    id: 'video',
    name: 'video-catid-id',
    path: '/video/:catid/:id',
    params: { catid: 'id', id: 'id' },
    layout: 'default',
    ...VIDEO,
  },
  { id: 'video-id', name: 'video-id', path: '/video/:id', params: { id: 'id' }, layout: 'default', ...VIDEO },
  {
    id: 'videoLive',
    name: 'videoLive-catid-id',
    path: '/videoLive/:catid/:id',
    params: { catid: 'id', id: 'id' },
    layout: 'default',
    ...LIVE,
  },
  { id: 'videoLive-id', name: 'videoLive-id', path: '/videoLive/:id', params: { id: 'id' }, layout: 'default', ...LIVE },
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
];

export type RouteMatch =
  | { kind: 'page'; route: RouteDef; params: RouteParams }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' };

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

/**
 * Pathname → what to serve. The first route whose pattern matches and whose params pass their rules wins; a
 * pattern that matches with bad params does not stop the search (`/V1/abc` may still be a `/{menu}/V1`-less
 * miss), and when nothing wins the answer is 404.
 */
export function matchRoute(pathname: string): RouteMatch {
  for (const route of ROUTES) {
    const found = matchPath({ path: route.path, caseSensitive: true, end: true }, pathname);
    if (!found) continue;
    const params = decodeParams(found.params);
    if (!params || !paramsAreValid(route, params)) continue;
    if (!route.name) return { kind: 'redirect', location: '/' };
    return { kind: 'page', route, params };
  }
  return { kind: 'not-found' };
}

export function routeById(id: string): RouteDef | undefined {
  return ROUTES.find((route) => route.id === id);
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
