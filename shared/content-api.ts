/**
 * The typed content calls that loaders use (docs/product.md §7), in entities of ./types/entities. The server implements
 * it over the upstream client and the data cache; loaders never see HTTP, envelopes or cache keys.
 */
import type {
  AdGroups,
  Article,
  ArticlePage,
  Category,
  ColumnAuthor,
  FriendlyLink,
  GreyMode,
  SiteSeo,
  Topic,
  TopicDetail,
  BoutiqueItem,
  ColumnAuthorInfo,
  Live,
  LivePlayback,
  NewspaperIssue,
  Paged,
  ShikeCategory,
  SpecialReport,
  Tag,
  Video,
  VideoAlbum,
} from './types/entities';
import type { Advertisement, LiveStatus } from './types/entities';

export interface HomeAdSlot {
  position: number;
  ads: Advertisement[];
}

export interface SiteInfo {
  seo: SiteSeo;
  friendlyLinks: FriendlyLink[];
}

export interface ContentApi {
  /** GET /api/common/get_menu_list */
  menu(): Promise<Category[]>;
  /** POST /mobile/index/category_index {catid}: data.children, [] when none. */
  categoryChildren(catid: number): Promise<Category[]>;
  /** GET /list/{catid}/{page}.html?pagesize={size} */
  articleList(catid: number, page: number, pageSize: number): Promise<ArticlePage>;
  /** GET /show/{catid}-{id}.html; null when the CMS has no such article. */
  article(catid: number, id: number): Promise<Article | null>;
  /** GET /api/ad/top?catid */
  adGroups(catid: number): Promise<AdGroups>;
  /** GET /api/ad/list_by_column_id?catid */
  homeAdSlots(catid: number): Promise<HomeAdSlot[]>;
  /** GET /theme/list/{page}?officeId=&pageSize= */
  topics(page: number, pageSize: number): Promise<Topic[]>;
  /** GET /theme/list/{page}?officeId=&pageSize=, with the total for paging. */
  topicPage(page: number, pageSize: number): Promise<{ list: Topic[]; total: number }>;
  /** GET /theme/get/{id}; null when there is no such topic. */
  topic(id: number): Promise<TopicDetail | null>;
  /** GET /api/special_column_author/list?page&page_size */
  columnAuthors(page: number, pageSize: number): Promise<{ list: ColumnAuthor[]; count: number }>;
  /** GET /api/common/get_site_info?site_id */
  siteInfo(siteId: number): Promise<SiteInfo | null>;
  /** Grey-mode flag call. */
  greyMode(): Promise<GreyMode>;
  /** GET /api/rmt/get_parent_category?id: the chain from the top-level category down to this one. */
  parentCategories(catid: number): Promise<Category[]>;
  /** GET /api/rmt/search_all?q&type&page&page_size */
  search(query: string, type: 1 | 2, page: number, pageSize: number): Promise<ArticlePage>;
  /** GET /api/rmt/get_headline_news?page&page_size */
  headlineNews(page: number, pageSize: number): Promise<ArticlePage>;
  /** GET /api/rmt/news_search_init: articles by tag or column author, with the entity the filter named. */
  newsSearch(
    filter: { tagId?: number; columnistId?: number },
    page: number,
    pageSize: number,
  ): Promise<{ articles: ArticlePage; tag: Tag | null; columnist: ColumnAuthor | null }>;
  /** GET /api/special_column_author/info?id */
  columnAuthor(id: number): Promise<ColumnAuthorInfo | null>;
  /** GET /api/special/list_by_catid?catid&id: one news-tracking report. */
  specialReport(id: number): Promise<SpecialReport | null>;
  /** GET /api/boutique/list?type&page&page_size (1 picture stories, 2 posters) */
  boutique(type: 1 | 2, page: number, pageSize: number): Promise<Paged<BoutiqueItem>>;
  /** GET /api/video/detail?id */
  video(id: number): Promise<Video | null>;
  /** GET /api/video_album/detail?id */
  videoAlbum(id: number): Promise<VideoAlbum | null>;
  /** GET /api/video_album/shike_video_category */
  shikeCategories(): Promise<ShikeCategory[]>;
  /** GET /api/video_album/shike_video_category_item?id&page&page_size */
  shikeVideos(categoryId: number, page: number, pageSize: number): Promise<(Paged<Video> & { category: ShikeCategory }) | null>;
  /** GET /api/live/info?id */
  live(id: number): Promise<Live | null>;
  /** GET /api/live/list?show_type&page&page_size: the lives on air (1), upcoming (2) or ended (3). */
  lives(status: LiveStatus, page: number, pageSize: number): Promise<Paged<Live>>;
  /** GET /api/special/list_by_catid?catid=0: every news-tracking report, latest update first. */
  specialReports(): Promise<SpecialReport[]>;
  /** GET /api/live/playback_list?id&page&page_size */
  livePlaybacks(liveId: number, page: number, pageSize: number): Promise<Paged<LivePlayback>>;
  /** GET /api/article/detail?id: an article when only its id is known (e-paper areas). */
  articleById(id: number): Promise<Article | null>;
  /** GET /api/rmt/read_newspapers_search?q&catid&page&page_size */
  newspapers(catid: number, query: string, page: number, pageSize: number): Promise<Paged<NewspaperIssue>>;
}

/** The upstream could not answer and nothing usable was cached: the page is a 503, not a 404. */
export class ContentUnavailableError extends Error {
  constructor(readonly call: string) {
    super(`content call ${call} is unavailable`);
    this.name = 'ContentUnavailableError';
  }
}
