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
  /** 责任编辑: the editor responsible for the article. Optional: older CMS answers leave it out. */
  editor?: string;
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

// ---- Content and discovery calls (SPEC §7). Paths and parameters are SPEC's; shapes are the reference API's. ----

/** A paged list as the /api/* calls answer it: the page's items and the total over all pages. */
export interface RawPagedList<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
}

/** GET /api/rmt/search_all?q&type&page&page_size → data (type 1 last 30 days, 2 all; newest first; empty q → empty list). */
export interface RawSearchResult extends RawPagedList<RawArticleListItem> {
  /** The keyword as the server understood it (trimmed). */
  q: string;
  type: 1 | 2;
}

/** GET /api/rmt/get_headline_news?page&page_size → data (headline articles, newest first). */
export type RawHeadlineNews = RawPagedList<RawArticleListItem>;

/**
 * GET /api/rmt/news_search_init?tag_id&columnist_id&q&themeid&page&page_size → data: articles by tag, column
 * author, topic and/or keyword (filters combine), newest first, with the entity each id filter named.
 */
export interface RawNewsSearchInit extends RawPagedList<RawArticleListItem> {
  tag: RawTag | null;
  columnist: RawColumnAuthor | null;
  theme: RawTopic | null;
}

/** GET /api/rmt/get_parent_category?id(&type=1) → data: the chain from the top-level ancestor down to the category. */
export interface RawParentCategory {
  /** Root first, the category itself last; children empty, except with type=1 where each node has its direct children. */
  list: RawCategory[];
}

/** GET /api/special_column_author/info?id → data */
export interface RawColumnAuthorInfo extends RawColumnAuthor {
  /** Articles the author has published in the columns (news_search_init?columnist_id lists them). */
  article_count: number;
  title: string;
}

/** One update on a news-tracking timeline: the article plus its place in the story. */
export interface RawSpecialTimelineItem extends RawArticleListItem {
  /** Editor's label of the stage, e.g. '最新进展'. */
  stage: string;
}

/** GET /api/special/list_by_catid?catid(&id) → data: RawSpecialReport[] (专题 / 新闻追踪 of the category and its descendants). */
export interface RawSpecialReport {
  id: number;
  catid: number;
  title: string;
  cover: string;
  description: string;
  /** Unix seconds of the latest update. */
  adddate: number;
  /** 1 still being updated, 2 concluded. */
  status: 1 | 2;
  /** Oldest first: the order a timeline is read in. */
  article_ids: number[];
  articles: RawSpecialTimelineItem[];
}

export interface RawImage {
  url: string;
  width: number;
  height: number;
  caption: string;
}

/** GET /api/boutique/list?page&page_size(&type) → data: RawPagedList<RawBoutiqueItem> (精品: type 1 picture story for /hd, 2 poster for /poster). */
export interface RawBoutiqueItem {
  id: number;
  type: 1 | 2;
  title: string;
  description: string;
  cover: string;
  images: RawImage[];
  adddate: number;
}

export type RawBoutiqueList = RawPagedList<RawBoutiqueItem>;

/** GET /api/video_album/shike_video_category → data: RawShikeCategory[] (视刻 short-video categories). */
export interface RawShikeCategory {
  id: number;
  name: string;
  cover: string;
  description: string;
  video_count: number;
}

/** GET /api/video/detail?id and GET /api/video_album/shike_video_item?id → data */
export interface RawVideo {
  id: number;
  /** Portal category the video is filed under (/video/{catid}/{id}). */
  catid: number;
  /** 视刻 category id. */
  category_id: number;
  title: string;
  cover: string;
  /** HLS media playlist (fMP4 segments). */
  hls_url: string;
  /** Seconds; equals the stream's real length. */
  duration: number;
  description: string;
  adddate: number;
  views: number;
  source: string;
}

/** GET /api/video_album/shike_video_category_item?id&page&page_size → data */
export interface RawShikeCategoryItems extends RawPagedList<RawVideo> {
  category: RawShikeCategory;
}

/** GET /api/video_album/detail?id → data */
export interface RawVideoAlbum {
  id: number;
  title: string;
  cover: string;
  description: string;
  adddate: number;
  videos: RawVideo[];
}

/** 1 live now, 2 upcoming, 3 ended (SPEC: live/list show_type). */
export type LiveStatus = 1 | 2 | 3;

/** GET /api/live/list?show_type&page&page_size → data: RawPagedList<RawLive>; GET /api/live/info?id and /api/live/detail?id → data */
export interface RawLive {
  id: number;
  catid: number;
  title: string;
  cover: string;
  status: LiveStatus;
  /** Unix seconds. */
  start_time: number;
  end_time: number;
  /** The live stream while status is 1, else ''. */
  hls_url: string;
  description: string;
  /** Readers watching (live) or who watched (ended); 0 for upcoming. */
  views: number;
}

/** GET /api/live/playback_list?id&page&page_size → data: RawPagedList<RawLivePlayback> (recordings of ended lives). */
export interface RawLivePlayback {
  id: number;
  live_id: number;
  title: string;
  cover: string;
  hls_url: string;
  duration: number;
  adddate: number;
}

/** An article's clickable area on a newspaper page, in page-image pixels. */
export interface RawNewspaperArea {
  article_id: number;
  title: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** 版面 */
export interface RawNewspaperPage {
  page_no: number;
  /** E.g. '要闻'. */
  name: string;
  /** 1200×1700 SVG. */
  image: string;
  width: number;
  height: number;
  areas: RawNewspaperArea[];
}

export interface RawNewspaperIssue {
  id: number;
  /** The paper's category (template 3): 2761 中国青年报, 2762 青年参考. */
  catid: number;
  paper_name: string;
  /** 'YYYY-MM-DD' in Asia/Shanghai. */
  issue_date: string;
  /** Running issue number of the paper. */
  issue_no: number;
  adddate: number;
  pages: RawNewspaperPage[];
}

/** GET /api/rmt/read_newspapers_search?q&catid(&page&page_size) → data (issues newest first). */
export type RawNewspaperSearch = RawPagedList<RawNewspaperIssue>;

/** GET /api/common/app_skin → data */
export interface RawAppSkin {
  id: number;
  name: string;
  /** 0 off: the portal keeps its default look. */
  enabled: 0 | 1;
  theme_color: string;
  header_background: string;
  logo: string;
  start_time: number;
  end_time: number;
}

// ---- Signed-in reader's lists and the account-side calls (SPEC §7). Shapes are the reference API's. ----

/** GET /api/collection/list_and_article_detail?page&page_size → data: the reader's collected articles, newest first. */
export type RawCollectedArticles = RawPagedList<RawArticleListItem>;

/** GET /api/collection_video/list_and_article_detail?page&page_size → data: the reader's collected videos, newest first. */
export type RawCollectedVideos = RawPagedList<RawVideo>;

/** GET /api/special_column_author/subscribe_list?page&page_size → data: authors the reader subscribes to (subscribe_status 1). */
export type RawSubscribedAuthors = RawPagedList<RawColumnAuthor>;

/** GET /api/tag/get_subscribe_list?page&page_size → data: tags the reader subscribes to, newest first. */
export interface RawSubscribedTags {
  lists: RawTag[];
  total: number;
  page: number;
  page_size: number;
}

/**
 * GET /api/wechat/get_jssdk_signature?url → data: what wx.config needs (SPEC §3 WeChat share config, less `debug`,
 * which the page chooses). signature = sha1("jsapi_ticket=…&noncestr=…&timestamp=…&url=…"), url without its hash.
 */
export interface RawJsSdkSignature {
  appId: string;
  /** Unix seconds. */
  timestamp: number;
  nonceStr: string;
  signature: string;
}

/** POST /api/common/feedback {content, contact} → data (SPEC leaves the body open; shared/feedback.ts has the rules). */
export interface RawFeedbackReceipt {
  id: number;
}
