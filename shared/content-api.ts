/**
 * The typed content calls that loaders use (SPEC §7), in entities of ./types/entities. The server implements
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
} from './types/entities';
import type { Advertisement } from './types/entities';

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
}

/** The upstream could not answer and nothing usable was cached: the page is a 503, not a 404. */
export class ContentUnavailableError extends Error {
  constructor(readonly call: string) {
    super(`content call ${call} is unavailable`);
    this.name = 'ContentUnavailableError';
  }
}
