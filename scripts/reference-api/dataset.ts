/**
 * The reference API's whole content: a deterministic function of (seed, now). All image paths in here are
 * relative ('/media/…'); the HTTP layer prefixes the public URL, which is only known once the server listens.
 */
import type { NewspaperIssue } from '../../shared/types/entities';
import { HOME_CATID, HOT_NEWS_ID, MINGDI_DETAIL_ID } from '../../shared/constants';
import { MAIN_DOMAIN, REGIONAL_SITES } from '../../shared/sites';
import type {
  RawAdGroups,
  RawAdSlot,
  RawArticleDetail,
  RawArticleListItem,
  RawCategory,
  RawColumnAuthor,
  RawGreyMode,
  RawAppSkin,
  RawBoutiqueItem,
  RawShikeCategory,
  RawSiteInfo,
  RawTag,
} from '../../server/upstream/wire';
import { generateAds, generateRecommendAds } from './ads';
import { generateBoutique } from './boutique';
import { generateLives, type LiveRecord, type PlaybackRecord } from './lives';
import { imagePath } from './media';
import { generateNewspapers } from './newspapers';
import { generateSpecials, type SpecialRecord } from './specials';
import { albumsOfVideos, generateVideos, type AlbumRecord, type AlbumsOfVideo, type VideoRecord } from './videos';
import { ALL_TAGS, generateArticles } from './articles';
import { buildCategoryTree, buildMenu, regionalSitesWithCatid, type CategoryRecord } from './categories';
import { generateColumnAuthors, generateSiteInfo, generateTopics, type TopicRecord } from './discovery';
import { createRng, type Rng } from './random';

export type { CategoryRecord, ContentPlan } from './categories';
export type { TopicRecord } from './discovery';
export type { LiveRecord, PlaybackRecord } from './lives';
export type { SpecialRecord } from './specials';
export type { AlbumRecord, VideoRecord } from './videos';

export const DEFAULT_SEED = 20_240_601;
const COLUMN_AUTHOR_COUNT = 24;
/** Headline news (get_headline_news): the 要闻 and 时政 home blocks. */
const HEADLINE_CATIDS: readonly number[] = [2728, 2729];
/** Commentary categories whose articles are written by the special-column authors. */
const COLUMN_CATIDS: ReadonlySet<number> = new Set([2721, 2722, 2723, MINGDI_DETAIL_ID]);
/** National categories a newspaper reprints from: the home blocks and the news channel. */
const NEWSPAPER_SOURCE_CATIDS: readonly number[] = [HOME_CATID, 2710];
/** Every fourth topic is recommended (the '热门专题' side block, /theme/list?catid=-4). */
const RECOMMEND_EVERY = 4;

export interface DatasetOptions {
  seed?: number;
  /** Three menu entries misconfigured as an editor might leave them (the warnings' test bed); off by default. */
  menuFaults?: boolean;
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
  /** get_headline_news, newest first. */
  headlineIds: readonly number[];
  /** Article ids per tag id, newest first; every tag has an entry. */
  articlesByTag: ReadonlyMap<number, readonly number[]>;
  /** Article ids per column author id, newest first; every author has an entry. */
  articlesByColumnist: ReadonlyMap<number, readonly number[]>;
  /** Recommended topics (catid -4), newest first. */
  recommendedTopicIds: readonly number[];
  /** Side-column ad slots of the pseudo-category -4. */
  recommendAdSlots: readonly RawAdSlot[];
  shikeCategories: readonly RawShikeCategory[];
  /** Newest first. */
  videos: readonly VideoRecord[];
  videoById: ReadonlyMap<number, VideoRecord>;
  albums: readonly AlbumRecord[];
  albumById: ReadonlyMap<number, AlbumRecord>;
  /** The albums each video belongs to, as video answers list them. */
  albumsOfVideo: AlbumsOfVideo;
  lives: readonly LiveRecord[];
  liveById: ReadonlyMap<number, LiveRecord>;
  /** Newest first. */
  playbacks: readonly PlaybackRecord[];
  /** Newest first. */
  newspapers: readonly NewspaperIssue[];
  /** Newest first. */
  specials: readonly SpecialRecord[];
  /** Newest first. */
  boutique: readonly RawBoutiqueItem[];
  appSkin: RawAppSkin;
  /** Keys of the HLS streams the API serves (/media/hls/{key}/…). */
  hlsKeys: ReadonlySet<string>;
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
  return (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id;
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
    lists.set(
      category.catid,
      members.sort(newestFirst).map((article) => article.id),
    );
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

/** Column authors write the commentary articles: the byline is the author's name, and columnist_id names whose page it opens. */
function assignColumnists(
  rng: Rng,
  articles: readonly RawArticleDetail[],
  authors: readonly RawColumnAuthor[],
): { articles: RawArticleDetail[]; byAuthor: Map<number, number[]> } {
  const byAuthor = new Map<number, number[]>(authors.map((author) => [author.id, []]));
  const result = articles.map((article) => {
    if (!COLUMN_CATIDS.has(article.catid) || authors.length === 0) return article;
    const author = rng.pick(authors);
    byAuthor.get(author.id)?.push(article.id);
    return { ...article, author: author.name, columnist_id: author.id };
  });
  return { articles: result, byAuthor };
}

function indexBy(articles: readonly RawArticleDetail[], keys: (article: RawArticleDetail) => readonly number[], all: readonly number[]): Map<number, number[]> {
  const index = new Map<number, number[]>(all.map((key) => [key, []]));
  for (const article of [...articles].sort(newestFirst)) {
    for (const key of keys(article)) index.get(key)?.push(article.id);
  }
  return index;
}

function appSkin(now: number): RawAppSkin {
  // Off by default: a festival skin is switched on by editors for a few days a year.
  return {
    id: 1,
    name: '春节',
    enabled: 0,
    theme_color: '#c8161d',
    header_background: imagePath('skin1', 1920, 200),
    logo: imagePath('skinlogo', 360, 80, 'svg'),
    start_time: now - 10 * 86_400,
    end_time: now + 20 * 86_400,
  };
}

export function generateDataset(options: DatasetOptions = {}): Dataset {
  const seed = (options.seed ?? DEFAULT_SEED) >>> 0;
  const now = Math.floor(options.now ?? Date.now() / 1000);
  const rng = createRng(seed);

  const categories = buildCategoryTree(options.menuFaults === true);
  const categoryById = new Map(categories.map((category) => [category.catid, category]));
  const childrenOf = childrenIndex(categories);
  const columnAuthors = generateColumnAuthors(rng.fork('authors'), COLUMN_AUTHOR_COUNT);
  const columnists = assignColumnists(rng.fork('columnists'), generateArticles(rng.fork('articles'), categories, now), columnAuthors);
  const articles = columnists.articles;
  const articleById = new Map(articles.map((article) => [article.id, article]));
  const listByCatid = buildLists(categories, childrenOf, articles);

  const newest = (catid: number, count: number): RawArticleListItem[] =>
    (listByCatid.get(catid) ?? []).slice(0, count).flatMap((id) => {
      const article = articleById.get(id);
      return article ? [toListItem(article)] : [];
    });
  const homeCatids = [HOME_CATID, ...regionalSitesWithCatid().map((site) => site.catid)];
  const ads = generateAds(rng.fork('ads'), homeCatids, (catid) => newest(catid, 40), [...newest(HOT_NEWS_ID, 20), ...newest(HOME_CATID, 40)]);
  // Topics gather national stories: the home blocks and the hot-news list.
  const topicPool = (listByCatid.get(HOME_CATID) ?? []).concat(listByCatid.get(HOT_NEWS_ID) ?? []);
  const topics = generateTopics(rng.fork('topics'), now, topicPool);
  const recommendAds = generateRecommendAds(rng.fork('recommend-ads'), newest(HOT_NEWS_ID, 20));
  const detailsOf = (ids: readonly number[]): RawArticleDetail[] => ids.flatMap((id) => articleById.get(id) ?? []);
  const newspaperPool = detailsOf(NEWSPAPER_SOURCE_CATIDS.flatMap((catid) => listByCatid.get(catid) ?? [])).sort(newestFirst);
  const videoData = generateVideos(rng.fork('videos'), now);
  const liveData = generateLives(rng.fork('lives'), now);
  const hlsKeys = new Set([...videoData.videos, ...liveData.lives.filter((live) => live.hls_url !== ''), ...liveData.playbacks].map((entry) => entry.hlsKey));

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
    columnAuthors,
    adGroups: ads.adGroups,
    homeAdSlots: ads.homeAdSlots,
    videoAdIds: new Set([...ads.videoAdIds, ...recommendAds.videoAdIds]),
    siteInfo: generateSiteInfo(rng.fork('sites')),
    domainByCatid: buildDomains(categories, childrenOf),
    greyMode: '0',
    headlineIds: detailsOf(HEADLINE_CATIDS.flatMap((catid) => listByCatid.get(catid) ?? []))
      .sort(newestFirst)
      .map((article) => article.id),
    articlesByTag: indexBy(
      articles,
      (article) => article.tags.map((tag) => tag.id),
      ALL_TAGS.map((tag) => tag.id),
    ),
    articlesByColumnist: new Map(
      [...columnists.byAuthor].map(([id, ids]) => [
        id,
        detailsOf(ids)
          .sort(newestFirst)
          .map((article) => article.id),
      ]),
    ),
    recommendedTopicIds: topics.filter((topic) => topic.id % RECOMMEND_EVERY === 0).map((topic) => topic.id),
    recommendAdSlots: recommendAds.slots,
    shikeCategories: videoData.shikeCategories,
    videos: videoData.videos,
    videoById: new Map(videoData.videos.map((video) => [video.id, video])),
    albums: videoData.albums,
    albumById: new Map(videoData.albums.map((album) => [album.id, album])),
    albumsOfVideo: albumsOfVideos(videoData.albums),
    lives: liveData.lives,
    liveById: new Map(liveData.lives.map((live) => [live.id, live])),
    playbacks: liveData.playbacks,
    newspapers: generateNewspapers(rng.fork('newspapers'), now, newspaperPool),
    specials: generateSpecials(rng.fork('specials'), now, (catid) => detailsOf(listByCatid.get(catid) ?? [])),
    boutique: generateBoutique(rng.fork('boutique'), now),
    appSkin: appSkin(now),
    hlsKeys,
  };
}
