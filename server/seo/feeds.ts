/**
 * What crawlers and feed readers fetch: robots.txt, the sitemap index with a pages sitemap and a news sitemap
 * of recent articles, and an RSS 2.0 feed per category. Each is per site (URLs on the site's own domain) and
 * built from the same content calls as the pages, so every URL listed is one the portal serves.
 */
import { HOT_NEWS_ID, HOT_NEWS_SIZE, HOME_CATEGORY_LIST_SIZE, HOME_MAX_BLOCKS } from '../../shared/constants';
import type { ContentApi } from '../../shared/content-api';
import { siteCategory, siteTitle } from '../pages/helpers';
import { href, routeTable } from '../../shared/routes';
import { homeCatidOf, type SiteConfig } from '../../shared/sites';
import { isoDateTime } from '../../shared/time';
import type { ArticleSummary } from '../../shared/types/entities';
import { rssHtmlText, rssPlainText, XML_DECLARATION, xmlText } from './xml';

export const RSS_ITEMS = 20;

function origin(site: SiteConfig, protocol: string): string {
  return `${protocol}://${site.domain}`;
}

export function robotsTxt(site: SiteConfig, protocol: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /_data/', 'Disallow: /personalCenter', `Sitemap: ${origin(site, protocol)}/sitemap.xml`, ''].join('\n');
}

export function sitemapIndex(site: SiteConfig, protocol: string): string {
  const base = origin(site, protocol);
  const entries = ['pages', 'news'].map((name) => `<sitemap><loc>${xmlText(`${base}/sitemaps/${name}.xml`)}</loc></sitemap>`);
  return `${XML_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</sitemapindex>`;
}

/** RFC 822 date-time (RSS 2.0), e.g. 'Tue, 25 Nov 2026 12:00:00 GMT'; only ever given a date that passed cmsDateSeconds. */
function rfc822(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toUTCString();
}

function urlset(urls: ReadonlyArray<{ loc: string; lastmod?: string }>): string {
  const body = urls.map((url) => `<url><loc>${xmlText(url.loc)}</loc>${url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : ''}</url>`).join('');
  return `${XML_DECLARATION}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>`;
}

/** Fixed routes that show a page (home first, then by path), plus the list page of every home category that has articles. */
export async function pagesSitemap(site: SiteConfig, protocol: string, content: ContentApi): Promise<string> {
  const base = origin(site, protocol);
  const fixedPages = routeTable()
    .filter((route) => route.page && !route.path.includes(':') && route.path !== '/home')
    .filter((route) => route.id !== 'personalCenter')
    .map((route) => route.path)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((path) => ({ loc: `${base}${path}` }));
  // The home's categories as the home page shows them: at most HOME_MAX_BLOCKS (docs/pages.md).
  const categories = (await content.categoryChildren(homeCatidOf(site))).slice(0, HOME_MAX_BLOCKS);
  const lists = await Promise.all(categories.map((category) => content.articleList(category.catid, 1, 1)));
  const categoryPages = categories
    .filter((_, index) => (lists[index]?.total ?? 0) > 0)
    .map((category) => ({ loc: `${base}${href.categoryList(category.catid)}` }));
  const mediaPages = (await mediaPaths(content)).map((path) => ({ loc: `${base}${path}` }));
  return urlset([...fixedPages, ...categoryPages, ...mediaPages]);
}

const SITEMAP_LIVES_PER_STATUS = 50;
const SITEMAP_VIDEOS_PER_CATEGORY = 50;

/**
 * The pages reached from lists rather than from the menu: every live (on air, upcoming, ended), every
 * news-tracking report, and the albums the 视刻 videos belong to.
 */
async function mediaPaths(content: ContentApi): Promise<string[]> {
  const [lives, reports, shikeCategories] = await Promise.all([
    Promise.all(([1, 2, 3] as const).map((status) => content.lives(status, 1, SITEMAP_LIVES_PER_STATUS))),
    content.specialReports(),
    content.shikeCategories(),
  ]);
  const videoPages = await Promise.all(shikeCategories.map((category) => content.shikeVideos(category.id, 1, SITEMAP_VIDEOS_PER_CATEGORY)));
  const albumIds = new Set(videoPages.flatMap((page) => page?.list ?? []).flatMap((video) => video.albums.map((album) => album.id)));
  return [
    ...lives.flatMap((page) => page.list).map((live) => href.live(live.id)),
    ...reports.map((report) => href.newsTrack(report.id)),
    ...[...albumIds].sort((left, right) => left - right).map((id) => href.videoAlbum(id)),
  ];
}

/** Recent articles of the site's home categories and the hot news, newest first, each once. */
async function recentArticles(site: SiteConfig, content: ContentApi): Promise<ArticleSummary[]> {
  // The home's categories as the home page shows them: at most HOME_MAX_BLOCKS (docs/pages.md).
  const categories = (await content.categoryChildren(homeCatidOf(site))).slice(0, HOME_MAX_BLOCKS);
  const lists = await Promise.all([
    content.articleList(HOT_NEWS_ID, 1, HOT_NEWS_SIZE),
    ...categories.map((category) => content.articleList(category.catid, 1, HOME_CATEGORY_LIST_SIZE)),
  ]);
  const byId = new Map<number, ArticleSummary>();
  for (const item of lists.flatMap((list) => list.items)) byId.set(item.id, item);
  // Newest first; an article without a usable date (null) last.
  return [...byId.values()].sort((a, b) => (b.adddate ?? 0) - (a.adddate ?? 0));
}

export async function newsSitemap(site: SiteConfig, protocol: string, content: ContentApi): Promise<string> {
  const base = origin(site, protocol);
  const articles = await recentArticles(site, content);
  return urlset(
    articles.map((item) => ({ loc: `${base}${href.detail(item.catid, item.id)}`, ...(item.adddate === null ? {} : { lastmod: isoDateTime(item.adddate) }) })),
  );
}

/** RSS 2.0 of a category's newest articles; null when the category is unknown and empty. */
export async function categoryRss(site: SiteConfig, protocol: string, catid: number, content: ContentApi): Promise<string | null> {
  const [category, list] = await Promise.all([siteCategory(content, site, catid), content.articleList(catid, 1, RSS_ITEMS)]);
  if (!category && list.items.length === 0) return null;
  const base = origin(site, protocol);
  const title = siteTitle(category?.catname ?? '最新文章', site);
  const items = list.items.map((item) => {
    const link = `${base}${href.detail(item.catid, item.id)}`;
    return (
      `<item><title>${rssPlainText(item.fullTitle)}</title><link>${xmlText(link)}</link>` +
      `<description>${rssHtmlText(item.description)}</description>` +
      (item.adddate === null ? '' : `<pubDate>${rfc822(item.adddate)}</pubDate>`) +
      `<guid isPermaLink="true">${xmlText(link)}</guid>${item.source ? `<source url="${xmlText(base)}">${rssPlainText(item.source)}</source>` : ''}</item>`
    );
  });
  const dates = list.items.flatMap((item) => (item.adddate === null ? [] : [item.adddate]));
  const newest = dates.length > 0 ? Math.max(...dates) : null;
  return (
    `${XML_DECLARATION}<rss version="2.0"><channel><title>${rssPlainText(title)}</title>` +
    `<link>${xmlText(`${base}${href.categoryList(catid)}`)}</link><description>${rssHtmlText(site.seo_description)}</description>` +
    `<language>zh-cn</language>${newest === null ? '' : `<lastBuildDate>${rfc822(newest)}</lastBuildDate>`}` +
    `${items.join('')}</channel></rss>`
  );
}
