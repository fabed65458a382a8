/** Home (/ and /home): the site's home categories with their latest articles, and the homepage ad slots. */
import { HOME_CATEGORY_LIST_SIZE } from '../constants';
import type { HomeAdSlot } from '../content-api';
import { placedHomeSlots } from '../home-ad-slots';
import { homeCatidOf } from '../sites';
import type { ContentApi } from '../content-api';
import { articleLink, type ArticleLink, type Live } from '../types/entities';
import type { Loader } from './types';

export interface HomeBlock {
  catid: number;
  catname: string;
  /** Links only: the page shows titles and times, so the hydration state carries no summaries or pictures. */
  items: ArticleLink[];
}

/** A live as home lists it: what the 直播 block shows, nothing more in the hydration state. */
export type HomeLive = Pick<Live, 'id' | 'title' | 'status' | 'start_time'>;

/** A news-tracking report as home lists it. */
export interface HomeNewsTrack {
  id: number;
  title: string;
  ongoing: boolean;
  updates: number;
}

export interface HomeData {
  blocks: HomeBlock[];
  /** Only the slots home places (shared/home-ad-slots.ts): an ad in the state is an ad on the page. */
  adSlots: HomeAdSlot[];
  /** On air first, then the soonest upcoming (at most HOME_LIVES). */
  lives: HomeLive[];
  /** The reports updated last (at most HOME_NEWS_TRACKS). */
  newsTracks: HomeNewsTrack[];
}

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
  const [categories, adSlots, lives, newsTracks] = await Promise.all([
    content.categoryChildren(homeCatid),
    content.homeAdSlots(homeCatid),
    // Side blocks: without them home is still home.
    currentLives(content).catch(() => []),
    latestNewsTracks(content).catch(() => []),
  ]);
  const lists = await Promise.all(categories.map((category) => content.articleList(category.catid, 1, HOME_CATEGORY_LIST_SIZE)));
  const blocks = categories
    .map((category, index) => ({ catid: category.catid, catname: category.catname, items: (lists[index]?.items ?? []).map(articleLink) }))
    .filter((block) => block.items.length > 0);
  return {
    kind: 'ok',
    data: { blocks, adSlots: placedHomeSlots(adSlots), lives, newsTracks },
    head: { title: site.seo_title, description: site.seo_description, keywords: site.seo_keywords },
  };
};
