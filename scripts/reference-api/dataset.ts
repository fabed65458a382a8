/**
 * The reference API's whole content: a deterministic function of (seed, now). All image paths in here are
 * relative ('/media/…'); the HTTP layer prefixes the public URL, which is only known once the server listens.
 */
import { HOME_CATID, HOT_NEWS_ID } from '../../shared/constants';
import { MAIN_DOMAIN, REGIONAL_SITES } from '../../shared/sites';
import type {
  RawAdGroups,
  RawAdSlot,
  RawArticleDetail,
  RawArticleListItem,
  RawCategory,
  RawColumnAuthor,
  RawGreyMode,
  RawSiteInfo,
  RawTag,
} from '../../shared/types/upstream';
import { generateAds } from './ads';
import { ALL_TAGS, generateArticles } from './articles';
import { buildCategoryTree, buildMenu, regionalSitesWithCatid, type CategoryRecord } from './categories';
import { generateColumnAuthors, generateSiteInfo, generateTopics, type TopicRecord } from './discovery';
import { createRng } from './random';

export type { CategoryRecord, ContentPlan } from './categories';
export type { TopicRecord } from './discovery';

export const DEFAULT_SEED = 20_240_601;
const COLUMN_AUTHOR_COUNT = 24;

export interface DatasetOptions {
  seed?: number;
  /** Unix seconds; defaults to the wall clock. Every adddate is relative to it. */
  now?: number;
}

export interface Dataset {
  seed: number;
  now: number;
  /** Tree order: parents before children, siblings in menu order. */
  categories: readonly CategoryRecord[];
  categoryById: ReadonlyMap<number, CategoryRecord>;
  childrenOf: ReadonlyMap<number, readonly number[]>;
  menu: readonly RawCategory[];
  /** Ordered by id, which is also publication order. */
  articles: readonly RawArticleDetail[];
  articleById: ReadonlyMap<number, RawArticleDetail>;
  /** Article ids of a category and all its descendants, newest first; every known catid has an entry. */
  listByCatid: ReadonlyMap<number, readonly number[]>;
  tags: readonly RawTag[];
  /** Newest first. */
  topics: readonly TopicRecord[];
  topicById: ReadonlyMap<number, TopicRecord>;
  columnAuthors: readonly RawColumnAuthor[];
  adGroups: RawAdGroups;
  homeAdSlots: ReadonlyMap<number, readonly RawAdSlot[]>;
  videoAdIds: ReadonlySet<number>;
  siteInfo: ReadonlyMap<number, RawSiteInfo>;
  /** Site domain per catid: the province domain for regional categories, the main domain for the rest. */
  domainByCatid: ReadonlyMap<number, string>;
  greyMode: RawGreyMode;
}

function childrenIndex(categories: readonly CategoryRecord[]): Map<number, number[]> {
  const index = new Map<number, number[]>();
  for (const category of categories) {
    index.set(category.catid, index.get(category.catid) ?? []);
    const siblings = index.get(category.parentid) ?? [];
    siblings.push(category.catid);
    index.set(category.parentid, siblings);
  }
  index.delete(0);
  return index;
}

function descendantsOf(catid: number, childrenOf: ReadonlyMap<number, readonly number[]>): number[] {
  const result = [catid];
  for (let cursor = 0; cursor < result.length; cursor += 1) {
    result.push(...(childrenOf.get(result[cursor] ?? 0) ?? []));
  }
  return result;
}

/** Newest first, ties broken by the larger (later) id, as a CMS orders by adddate desc, id desc. */
function newestFirst(left: RawArticleDetail, right: RawArticleDetail): number {
  return right.adddate - left.adddate || right.id - left.id;
}

function buildLists(
  categories: readonly CategoryRecord[],
  childrenOf: ReadonlyMap<number, readonly number[]>,
  articles: readonly RawArticleDetail[],
): Map<number, number[]> {
  const own = new Map<number, RawArticleDetail[]>();
  for (const article of articles) {
    const bucket = own.get(article.catid) ?? [];
    bucket.push(article);
    own.set(article.catid, bucket);
  }
  const lists = new Map<number, number[]>();
  for (const category of categories) {
    const members = descendantsOf(category.catid, childrenOf).flatMap((catid) => own.get(catid) ?? []);
    lists.set(category.catid, members.sort(newestFirst).map((article) => article.id));
  }
  return lists;
}

function buildDomains(categories: readonly CategoryRecord[], childrenOf: ReadonlyMap<number, readonly number[]>): Map<number, string> {
  const domains = new Map<number, string>(categories.map((category) => [category.catid, MAIN_DOMAIN]));
  for (const site of REGIONAL_SITES) {
    if (site.catid <= 0) continue;
    for (const catid of descendantsOf(site.catid, childrenOf)) domains.set(catid, site.domain);
  }
  return domains;
}

export function toListItem(article: RawArticleDetail): RawArticleListItem {
  const { id, catid, title, list_title, description, thumb, adddate, source } = article;
  return { id, catid, title, list_title, description, thumb, adddate, source };
}

export function generateDataset(options: DatasetOptions = {}): Dataset {
  const seed = (options.seed ?? DEFAULT_SEED) >>> 0;
  const now = Math.floor(options.now ?? Date.now() / 1000);
  const rng = createRng(seed);

  const categories = buildCategoryTree();
  const categoryById = new Map(categories.map((category) => [category.catid, category]));
  const childrenOf = childrenIndex(categories);
  const articles = generateArticles(rng.fork('articles'), categories, now);
  const articleById = new Map(articles.map((article) => [article.id, article]));
  const listByCatid = buildLists(categories, childrenOf, articles);

  const newest = (catid: number, count: number): RawArticleListItem[] =>
    (listByCatid.get(catid) ?? []).slice(0, count).flatMap((id) => {
      const article = articleById.get(id);
      return article ? [toListItem(article)] : [];
    });
  const homeCatids = [HOME_CATID, ...regionalSitesWithCatid().map((site) => site.catid)];
  const ads = generateAds(rng.fork('ads'), homeCatids, (catid) => newest(catid, 40), [
    ...newest(HOT_NEWS_ID, 20),
    ...newest(HOME_CATID, 40),
  ]);
  // Topics gather national stories: the home blocks and the hot-news list.
  const topicPool = (listByCatid.get(HOME_CATID) ?? []).concat(listByCatid.get(HOT_NEWS_ID) ?? []);
  const topics = generateTopics(rng.fork('topics'), now, topicPool);

  return {
    seed,
    now,
    categories,
    categoryById,
    childrenOf,
    menu: buildMenu(categoryById, childrenOf),
    articles,
    articleById,
    listByCatid,
    tags: ALL_TAGS,
    topics,
    topicById: new Map(topics.map((topic) => [topic.id, topic])),
    columnAuthors: generateColumnAuthors(rng.fork('authors'), COLUMN_AUTHOR_COUNT),
    adGroups: ads.adGroups,
    homeAdSlots: ads.homeAdSlots,
    videoAdIds: ads.videoAdIds,
    siteInfo: generateSiteInfo(rng.fork('sites')),
    domainByCatid: buildDomains(categories, childrenOf),
    greyMode: '0',
  };
}
