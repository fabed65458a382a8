/** Pages of every kind the route table serves, as a reader reaches them (real ids of the reference dataset). */
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
