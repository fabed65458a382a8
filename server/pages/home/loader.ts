/** Home (/ and /home): the site's home categories with their latest articles, and the homepage ad slots. */
import { HOME_CATEGORY_LIST_SIZE, HOME_MAX_BLOCKS } from '../../../shared/constants';
import { placedHomeSlots } from '../../../shared/home-ad-slots';
import { homeCatidOf } from '../../../shared/sites';
import { href } from '../../../shared/routes';
import type { ContentApi } from '../../../shared/content-api';
import { articleLink } from '../../../shared/types/entities';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type HomeData, type HomeLive, type HomeNewsTrack } from '../../../shared/pages/home/route';

const HOME_LIVES = 4;
const HOME_NEWS_TRACKS = 5;

/** What is on air now, then what starts next: the 直播 block's entries. */
async function currentLives(content: ContentApi): Promise<HomeLive[]> {
  const [onAir, upcoming] = await Promise.all([content.lives(1, 1, HOME_LIVES), content.lives(2, 1, HOME_LIVES)]);
  return [...onAir.list, ...upcoming.list].slice(0, HOME_LIVES).map(({ id, title, status, start_time }) => ({ id, title, status, start_time }));
}

async function latestNewsTracks(content: ContentApi): Promise<HomeNewsTrack[]> {
  const reports = await content.specialReports();
  return reports.slice(0, HOME_NEWS_TRACKS).map((report) => ({ id: report.id, title: report.title, ongoing: report.ongoing, updates: report.timeline.length }));
}

export const loadHome: Loader<HomeData> = async ({ site, content }) => {
  const homeCatid = homeCatidOf(site);
  const [children, adSlots, lives, newsTracks] = await Promise.all([
    content.categoryChildren(homeCatid),
    content.homeAdSlots(homeCatid),
    // Side blocks: without them home is still home.
    currentLives(content).catch(() => []),
    latestNewsTracks(content).catch(() => []),
  ]);
  // One list call per block: the blocks the CMS names past the first HOME_MAX_BLOCKS are not asked for.
  const categories = children.slice(0, HOME_MAX_BLOCKS);
  const lists = await Promise.all(categories.map((category) => content.articleList(category.catid, 1, HOME_CATEGORY_LIST_SIZE)));
  const blocks = categories
    .map((category, index) => ({ catid: category.catid, catname: category.catname, items: (lists[index]?.items ?? []).map(articleLink) }))
    .filter((block) => block.items.length > 0);
  return {
    kind: 'ok',
    data: { blocks, adSlots: placedHomeSlots(adSlots), lives, newsTracks },
    // `/home` answers too (home's second spelling): its canonical link is `/`, the path the site links to.
    head: { title: site.seo_title, description: site.seo_description, keywords: site.seo_keywords, canonicalPath: href.home() },
  };
};

export default definePageLoaders(route, { home: loadHome, 'home-alias': loadHome });
