/**
 * Wire shapes of the upstream content API (SPEC §7): what the CMS sends and what the reference API in
 * scripts/reference-api emits. The portal never renders these directly; server/upstream normalises them
 * into the entities of ./entities.ts.
 */

/** GET /list/{catid}/{pageIndex}.html?pagesize={n} → data */
export interface RawArticleList {
  lists: RawArticleListItem[];
  total: number;
  page: number;
  pagesize: number;
}

export interface RawArticleListItem {
  id: number;
  catid: number;
  title: string;
  /** Editors' shorter headline for lists; replaces title when not empty (SPEC §3). */
  list_title: string;
  description: string;
  thumb: string;
  /** Unix seconds. */
  adddate: number;
  source: string;
}

/** GET /show/{catid}-{id}.html → data (code non-zero when the article does not exist). */
export interface RawArticleDetail extends RawArticleListItem {
  catname: string;
  author: string;
  keywords: string;
  /** Body HTML as the CMS stores it: untrusted, sanitised by the portal before rendering. */
  content: string;
  views: number;
  tags: RawTag[];
}

export interface RawTag {
  id: number;
  name: string;
}

/** Menu node: GET /api/common/get_menu_list → data: RawCategory[]; POST /mobile/index/category_index {catid} → data.children. */
export interface RawCategory {
  catid: number;
  catname: string;
  parentid: number;
  categoryDirectory: string;
  /** {name:'template', desc:'1'..'8'} holds the template code (SPEC §3); other names are free-form settings. */
  newfield: RawMenuField[];
  children: RawCategory[];
}

export interface RawMenuField {
  name: string;
  desc: string;
}

/** POST /mobile/index/category_index {catid} → data */
export interface RawCategoryIndex {
  children: RawCategory[];
}

/** 1 image, 2 video (SPEC §3). */
export type AdType = 1 | 2;

export interface RawAdvertisement {
  id: number;
  ad_type: AdType;
  title: string;
  image: string;
  video: string;
  jump_url: string;
}

/** GET /api/ad/top?catid → data: the ad groups of the detail layout (SPEC §3). */
export interface RawAdGroups {
  detailTop: RawAdvertisement[];
  hotNewsTop: RawAdvertisement[];
  hotNewsBot: RawAdvertisement[];
  hotTopicBot: RawAdvertisement[];
  specialColBot: RawAdvertisement[];
}

/** GET /api/ad/list_by_column_id?catid → data: homepage slots by position 1–6 and 8–16 (SPEC §3). */
export interface RawAdSlot {
  position: number;
  list: RawAdvertisement[];
}

/** GET /theme/list/{page}?officeId=&pageSize= → data */
export interface RawTopicList {
  list: RawTopic[];
  total: number;
}

export interface RawTopic {
  id: number;
  title: string;
  description: string;
  cover_image: string;
  /** JSON text, e.g. '{"switch_value_android":"https://…"}' (SPEC §3: jump.switch_value_android from extend). */
  extend: string;
  adddate: number;
}

/** GET /theme/get/{id} → data */
export interface RawTopicDetail extends RawTopic {
  articles: RawArticleListItem[];
}

/** GET /api/special_column_author/list?page&page_size → data (SPEC §3: list and count). */
export interface RawColumnAuthorList {
  list: RawColumnAuthor[];
  count: number;
}

export interface RawColumnAuthor {
  id: number;
  name: string;
  avatar: string;
  description: string;
  subscribe_status: 0 | 1;
}

/**
 * GET /api/common/get_site_info?site_id → envelope with `time` and data (SPEC §3: seo and friendly_link_list).
 * The path is not in SPEC; this is the reference API's and the portal's agreed one.
 */
export interface RawSiteInfo {
  seo: { seo_title: string; seo_keywords: string; seo_description: string };
  friendly_link_list: RawFriendlyLink[];
}

export interface RawFriendlyLink {
  name: string;
  link: string;
}

/** Grey-mode flag (path not in SPEC; GET /api/common/grey_mode): '1' whole layout, '2' home only, else off. */
export type RawGreyMode = '0' | '1' | '2';
