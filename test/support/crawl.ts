/**
 * Every kind of page a reader can reach, found the way a crawler finds them: from home, the feeds and the
 * sitemaps, following the site's own links, a few pages of each route. For suites that feed the portal a
 * hostile CMS and must see every page kind answer.
 */
import request from 'supertest';
import { HOME_CATID } from '../../shared/constants';
import { href, findRoute } from '../../shared/routes';
import type { RawLive, RawPagedList, RawShikeCategory, RawShikeCategoryItems, RawSpecialReport } from '../../server/upstream/wire';
import { article, articleList, homeCategories, upstreamData } from './upstream-data';

export interface Crawled {
  path: string;
  status: number;
  contentType: string;
  body: string;
  /** The page id for a page ('detail'), or 'rss', 'robots' or the path for a feed or sitemap. */
  kind: string;
  /** The route id for a page ('tagDetail-id'), else the kind: at most `perKind` of each are visited. */
  route: string;
}

/** Feeds and sitemaps: where a crawler starts, beside home. */
export const SEO_PATHS = ['/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/news.xml', '/robots.txt'];

function kindOf(path: string): { kind: string; route: string } | null {
  const pathname = path.split('?')[0] ?? '';
  if (pathname.startsWith('/rss/')) return { kind: 'rss', route: 'rss' };
  if (pathname.startsWith('/sitemap')) return { kind: pathname, route: pathname };
  if (pathname === '/robots.txt') return { kind: 'robots', route: 'robots' };
  const match = findRoute(pathname);
  return match.kind === 'page' ? { kind: match.route.page, route: match.route.id } : null;
}

/** Same-site links of a page: href and <loc> values, made site-relative. */
function linksOf(body: string, origin: string): string[] {
  const found = [...body.matchAll(/(?:href="|<loc>|<link>)([^"<]+)/g)].map((match) => (match[1] ?? '').replace(/&amp;/g, '&'));
  return found
    .map((link) => (link.startsWith(origin) ? link.slice(origin.length) || '/' : link))
    .filter((link) => link.startsWith('/') && !link.startsWith('//'));
}

/**
 * Visits `start`, then links breadth first, at most `perKind` pages of each kind and `limit` in all; `extra` are
 * paths to visit whatever the pages link to (a search, say). Sends `host` as Host.
 */
export async function crawl(
  base: string,
  options: { host: string; origin: string; start?: readonly string[]; perKind?: number; limit?: number },
): Promise<Crawled[]> {
  const perKind = options.perKind ?? 2;
  const limit = options.limit ?? 250;
  const queue = [...(options.start ?? ['/', ...SEO_PATHS])];
  const seen = new Set<string>(queue);
  const counts = new Map<string, number>();
  const visited: Crawled[] = [];
  for (let path = queue.shift(); path !== undefined && visited.length < limit; path = queue.shift()) {
    const found = kindOf(path);
    if (found === null || path.startsWith('/assets/') || path.startsWith('/media/')) continue;
    if ((counts.get(found.route) ?? 0) >= perKind) continue;
    counts.set(found.route, (counts.get(found.route) ?? 0) + 1);
    const answer = await request(base)
      .get(path)
      .set('Host', options.host)
      .buffer(true)
      .parse((response, done) => {
        // Every answer as text, whatever its type (XML feeds included).
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () => done(null, Buffer.concat(parts).toString('utf8')));
      });
    const body = answer.body as string;
    visited.push({ path, status: answer.status, contentType: String(answer.headers['content-type'] ?? ''), body, ...found });
    for (const link of linksOf(body, options.origin)) {
      if (seen.has(link)) continue;
      seen.add(link);
      queue.push(link);
    }
  }
  return visited;
}

/**
 * Pages the crawl may not reach through links within its bounds, read from the reference API itself (clean ids
 * whatever the portal is fed): a 视刻 category, one of its videos, the tag page of an article's tag, a
 * live and a news track.
 */
export async function seedPaths(referenceUrl: string): Promise<string[]> {
  const categories = await upstreamData<RawShikeCategory[]>(referenceUrl, '/api/video_album/shike_video_category');
  const category = categories[0];
  if (!category) throw new Error('the reference API has no 视刻 category');
  const items = await upstreamData<RawShikeCategoryItems>(referenceUrl, `/api/video_album/shike_video_category_item?id=${category.id}&page=1&page_size=5`);
  const video = items.list[0];
  if (!video) throw new Error(`视刻 category ${category.id} has no video`);
  // Lives and news tracks are linked from home by what is on air now: named here so no crawl depends on the hour.
  const lives = await upstreamData<RawPagedList<RawLive>>(referenceUrl, '/api/live/list?show_type=3&page=1&page_size=1');
  const reports = await upstreamData<RawSpecialReport[]>(referenceUrl, '/api/special/list_by_catid?catid=0');
  const timely = [...lives.list.map((live) => href.live(live.id)), ...reports.slice(0, 1).map((report) => href.newsTrack(report.id))];
  const [home] = await homeCategories(referenceUrl, HOME_CATID);
  const entries = home ? (await articleList(referenceUrl, home.catid, 1, 20)).lists : [];
  for (const entry of entries) {
    const detail = await article(referenceUrl, entry.catid, entry.id);
    const tag = detail.tags[0];
    // One path per video: /video/{id} is a 301 to this one (server/pages/video/loader.ts).
    if (tag) return [`/shike/${category.id}`, href.video(video.catid, video.id), href.tag(tag.id), ...timely];
  }
  throw new Error('no article of the first home category has a tag');
}
