/** Pages of every kind the route table serves, as a reader reaches them (real ids of the reference dataset). */
import { findRoute, routeTable } from '../../shared/routes';
import { encodeKeyword } from '../../shared/search-keyword';

/** The first link on `from` whose path matches `pattern`. */
export async function firstLink(base: string, from: string, pattern: RegExp): Promise<string> {
  const html = await (await fetch(`${base}${from}`)).text();
  const found = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!).find((href) => pattern.test(href));
  if (!found) throw new Error(`no link matching ${pattern} on ${from}`);
  return found.replace(/&amp;/g, '&');
}

/** One page of each kind, home and an article first; the signed-in-only and missing pages last. */
export async function pagesOfEveryKind(base: string): Promise<string[]> {
  const topicList = await firstLink(base, '/siteMap', /^\/topic\/\d+$/);
  const shike = '/shike/2839';
  return [
    '/',
    await firstLink(base, '/', /^\/detail\/\d+\/\d+$/),
    await firstLink(base, '/siteMap', /\/V1\/\d+$/),
    await firstLink(base, '/siteMap', /\/V2\/\d+$/),
    topicList,
    await firstLink(base, topicList, /^\/topicDetail\/\d+$/),
    shike,
    await firstLink(base, shike, /^\/video\/\d+\/\d+$/),
    await firstLink(base, '/', /^\/liveStreamDetail\/\d+$/),
    '/hd',
    '/electronic',
    await firstLink(base, '/electronic', /^\/readNewspapers\/\d+/),
    '/specialColumn',
    await firstLink(base, '/specialColumn', /^\/specialColumnDetail\/\d+$/),
    '/headlineNews',
    `/search/${encodeKeyword('青年')}/2`,
    '/about',
    '/contribute',
    '/license',
    '/siteMap',
    // A visitor's personal center: the sign-in prompt, the same for every visitor.
    '/personalCenter',
  ];
}

/**
 * The page kinds issue 29 checks a phone reader's layout on (home, an article and its reading mode, a list,
 * search, video, live and the personal center), by name.
 */
export async function phoneReaderPages(base: string): Promise<Record<string, string>> {
  const detail = await firstLink(base, '/', /^\/detail\/\d+\/\d+$/);
  return {
    home: '/',
    detail,
    reading: detail.replace('/detail/', '/detailReading/'),
    list: await firstLink(base, '/siteMap', /\/V1\/\d+$/),
    search: `/search/${encodeKeyword('青年')}/2`,
    video: '/shike/2839',
    live: await firstLink(base, '/', /^\/liveStreamDetail\/\d+$/),
    personal: '/personalCenter',
  };
}

/** The first live of a state on the reference API (1 on air, 2 upcoming, 3 ended), as its page's path. */
async function livePath(upstreamUrl: string, state: 1 | 2 | 3): Promise<string> {
  const response = await fetch(`${upstreamUrl}/api/live/list?show_type=${state}&page=1&page_size=1`);
  const body = (await response.json()) as { data: { list: Array<{ id: number }> } };
  const live = body.data.list[0];
  if (!live) throw new Error(`no live of state ${state} on the reference API`);
  return `/liveStreamDetail/${live.id}`;
}

/**
 * One page of every page id the route table serves, by name, plus what a reader also meets: a live of each state,
 * the reading mode, a tag's page and the 404 page (issue 38, item 4). Suites that must cover every kind check
 * the paths against the table with `pageIdsMissing` (a new page missing here fails them). Reached by real links where
 * a page links to them; the rest read their ids from the reference API (`upstreamUrl`).
 */
export async function pagesOfEveryRoute(base: string, upstreamUrl: string): Promise<Record<string, string>> {
  const detail = await firstLink(base, '/', /^\/detail\/\d+\/\d+$/);
  const topicList = await firstLink(base, '/siteMap', /^\/topic\/\d+$/);
  const video = await firstLink(base, '/shike/2839', /^\/video\/\d+\/\d+$/);
  const tag = await firstLink(base, detail, /^\/tagDetail\/\d+/);
  const paper = await firstLink(base, '/electronic', /^\/readNewspapers\/\d+/);
  return {
    home: '/',
    detail,
    reading: detail.replace('/detail/', '/detailReading/'),
    list: await firstLink(base, '/siteMap', /\/V1\/\d+$/),
    listV2: await firstLink(base, '/siteMap', /\/V2\/\d+$/),
    topicList,
    topicDetail: await firstLink(base, topicList, /^\/topicDetail\/\d+$/),
    newsTrack: await firstLink(base, '/', /^\/newsTrack\/\d+$/),
    tag,
    headlineNews: '/headlineNews',
    specialColumn: '/specialColumn',
    specialColumnDetail: await firstLink(base, '/specialColumn', /^\/specialColumnDetail\/\d+$/),
    search: `/search/${encodeKeyword('青年')}/2`,
    searchEmpty: '/search',
    shike: '/shike/2839',
    video,
    videoAlbum: await firstLink(base, video, /^\/videoAlbum\/\d+/),
    liveOnAir: await livePath(upstreamUrl, 1),
    liveUpcoming: await livePath(upstreamUrl, 2),
    liveEnded: await livePath(upstreamUrl, 3),
    hd: '/hd',
    poster: '/poster',
    electronic: '/electronic',
    newspaperBoard: '/newspaperBoard',
    newspaper: paper,
    newspaperV2: paper.replace('/readNewspapers/', '/readNewspapers_v2/'),
    about: '/about',
    contribute: '/contribute',
    moveInto: '/moveInto',
    seekingReport: '/seekingReport',
    license: '/license',
    siteMap: '/siteMap',
    personal: '/personalCenter',
    notFound: '/no-such-page',
  };
}

/** The page ids of the route table that none of `paths` shows: what a suite claiming every kind left out. */
export function pageIdsMissing(paths: readonly string[]): string[] {
  const shown = new Set(
    paths.map((path) => findRoute(new URL(path, 'http://portal.test').pathname)).map((match) => (match.kind === 'page' ? match.route.page : match.kind)),
  );
  const every = new Set(routeTable().flatMap((route) => (route.page === undefined ? [] : [route.page])));
  return [...every].filter((id) => !shown.has(id)).sort();
}

/** A live's state as the reference API lists lives (`show_type`): its page is a kind of its own in each. */
export const LIVE_STATES = { 1: 'on air', 2: 'upcoming', 3: 'ended' } as const;
export type LiveState = (typeof LIVE_STATES)[keyof typeof LIVE_STATES];

/** Every live of the reference API with its state, so a live page's path says which of the three kinds it is. */
export async function liveStatesById(upstreamUrl: string): Promise<Map<number, LiveState>> {
  const states = new Map<number, LiveState>();
  for (const [type, state] of Object.entries(LIVE_STATES)) {
    const response = await fetch(`${upstreamUrl}/api/live/list?show_type=${type}&page=1&page_size=50`);
    const body = (await response.json()) as { data: { list: Array<{ id: number }> } };
    for (const live of body.data.list) states.set(live.id, state);
  }
  return states;
}

/**
 * Routes that are a second path to another route's page (an old spelling, a menu's prefix): one kind with it. A
 * route of the table missing here is a kind of its own, so a new page joins the suites that read every kind.
 */
const SAME_KIND_AS: Readonly<Record<string, string>> = {
  'home-alias': 'home',
  'readNewspapers_v2-id': 'readNewspapers-id',
  'video-id': 'video',
  videoLive: 'liveStreamDetail-id',
  'videoLive-id': 'liveStreamDetail-id',
};

const LIVE_KIND = 'liveStreamDetail-id';

/** A route's kind: its id, with a menu's prefix dropped (`/{menu}/{sub}/V1/{id}` is a V1 list) and second paths folded. */
function routeKind(routeId: string): string {
  const unprefixed = routeId.replace(/^menu-(sub-)?/, '');
  return SAME_KIND_AS[unprefixed] ?? unprefixed;
}

/**
 * The kind of page a path shows, by the route that serves it (`tagDetail`, `V2-id`, `/about`'s `about`), a live's
 * page by its state (`liveStreamDetail-id (upcoming)`); null for a path that shows no page (a feed, a redirect).
 */
export function pageKindOf(path: string, liveStates: ReadonlyMap<number, LiveState>): string | null {
  const match = findRoute(new URL(path, 'http://portal.test').pathname);
  if (match.kind !== 'page') return null;
  const kind = routeKind(match.route.id);
  if (kind !== LIVE_KIND) return kind;
  return `${LIVE_KIND} (${liveStates.get(Number(match.params['id'])) ?? 'unknown'})`;
}

/** Every kind of page the route table serves, by pageKindOf's names, a live in each of its states. */
export function everyPageKind(): string[] {
  const kinds = new Set(routeTable().flatMap((route) => (route.page === undefined ? [] : [routeKind(route.id)])));
  kinds.delete(LIVE_KIND);
  for (const state of Object.values(LIVE_STATES)) kinds.add(`${LIVE_KIND} (${state})`);
  return [...kinds].sort();
}
