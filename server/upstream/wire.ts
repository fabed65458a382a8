/**
 * Wire shapes of the upstream content API (docs/product.md §7): what the CMS sends and what the reference API in
 * scripts/reference-api emits. The portal never renders these directly; ./normalise.ts turns them into the
 * entities of shared/types/entities.ts.
 *
 * Each content call's answer has a zod schema here, and its type is inferred from that schema, so the check the
 * portal runs where an answer enters (server/upstream/http-client.ts) and the type the code relies on cannot
 * drift apart. Unknown fields are dropped by the check; a missing field or a wrong type fails the call.
 */
import { z } from 'zod';
import type { AdType, LiveStatus } from '../../shared/types/entities';

export type { AdType, LiveStatus };

const id = z.number().int();
const count = z.number().int().nonnegative();

/**
 * An id naming another entity, which the CMS may leave out or send as 0, null or junk: null then, never a failed
 * call, so a bad one costs the link it would have made, not the page.
 */
const optionalRef = z.unknown().transform((value) => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null));

/**
 * The window a CMS date must fall in to be one: from 2000-01-01 up to 2100-01-01 (UTC), fixed rather than relative
 * to now, so a held answer never changes meaning as it ages and server and browser read it alike. Wide enough for
 * every article the portal holds and any scheduled one; what falls outside is not a date a reader could use.
 */
export const EARLIEST_DATE_SECONDS = 946_684_800;
export const LATEST_DATE_SECONDS = 4_102_444_800;

/**
 * A CMS date (Unix seconds) read once where it enters (docs/security.md, "Dates from the CMS"): a whole number
 * of seconds in the window (a number, or a string of digits as PHP often sends; fractions dropped), else null,
 * which every page reads as 'no time' and leaves out (no text, no `<time>`, no datePublished, pubDate or
 * lastmod). So 0, negatives, 2^53−1, milliseconds sent for seconds, NaN-ish strings, a missing field, a year
 * 3000 are all absent, never 'NaN' or 'Invalid Date', and never a failed call: a bad date costs its time only.
 */
export function cmsDateSeconds(value: unknown): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,12}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return null;
  const seconds = Math.floor(number);
  return seconds >= EARLIEST_DATE_SECONDS && seconds < LATEST_DATE_SECONDS ? seconds : null;
}

/** Unix seconds, or null when the CMS sent no usable date (cmsDateSeconds), a missing field included. */
export const unixSeconds = z.unknown().optional().transform(cmsDateSeconds);

const CALENDAR_DAY = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/;

/**
 * A newspaper's issue date from the CMS (`issue_date`, 'YYYY-MM-DD' in Asia/Shanghai), read once where it enters by
 * the policy of cmsDateSeconds: a day that exists (no 2026-02-30) inside the same window, as 'YYYY-MM-DD'
 * (surrounding spaces dropped); anything else (a number, NaN, 2^53−1, a negative, a malformed or empty string, a
 * year 3000, null, a missing field) is null, never a failed call. An issue is addressed by its date
 * (/readNewspapers/{catid}?date=), so one without a usable date is left out of the lists it came in.
 */
export function cmsIssueDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = CALENDAR_DAY.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const seconds = time / 1000;
  return seconds >= EARLIEST_DATE_SECONDS && seconds < LATEST_DATE_SECONDS ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/**
 * The most entries read from any list the CMS sends (docs/pages.md, "Bounds on what the CMS sends"): pages ask for
 * at most 50 at a time, and no real list (menu, ads, tags, timelines, newspaper areas) comes near it. Entries past
 * it are dropped unread, before they are checked, so an answer inflated to thousands costs no more than this.
 */
export const CMS_LIST_MAX = 100;
/** The most children of one category read: the largest real one (the menu's) has 18. */
export const CATEGORY_CHILDREN_MAX = 50;
/**
 * The most ads one carousel reads (a detail-layout group, a home slot): every ad is a slide in the page, so 100
 * of them in five groups made a 345 KB article page. Real groups hold 1-3.
 */
export const AD_CAROUSEL_MAX = 10;
/**
 * Lists whose every entry costs an upstream call of its own when a page renders: 视刻 categories (the pages sitemap
 * reads one page of videos per category; the reference has 6) and a newspaper page's article areas (one article
 * read per area; a real broadsheet page has a dozen or two). Cut where they enter, so the calls of one render
 * stay bounded whatever the CMS sends.
 */
export const SHIKE_CATEGORIES_MAX = 16;
export const NEWSPAPER_AREAS_MAX = 32;
/**
 * Lists inside the entries of another list, which a page shows for every entry: their bounds multiply (12 picture
 * stories of 100 images each made a 1.3 MB gallery page). Each is a few times the largest real one: a picture
 * story's images (4-8), an issue's pages (a broadsheet has 8-24), an album's videos (4-8) and the albums one video
 * belongs to (0-2).
 */
export const GALLERY_IMAGES_MAX = 16;
export const NEWSPAPER_PAGES_MAX = 32;
export const ALBUM_VIDEOS_MAX = 50;
export const VIDEO_ALBUMS_MAX = 8;

/**
 * The most characters read from any one text the CMS sends (a title, a summary, a name, a picture's URL), an
 * article's body (`content`, HTML with a sanitiser of its own) aside: each is written into a page several times (the
 * heading, the document title, Open Graph and Twitter tags, JSON-LD, the hydration state, a share link; a URL once
 * per `srcset` width), so a 1.9 MB title made a 10.8 MB article page. Real ones are a few hundred at most; the
 * rest is dropped where the answer enters, and a cut never leaves half a surrogate pair.
 */
export const CMS_TEXT_MAX = 2048;
/** A title or a name (a headline, a category, a tag, a source, an author, a caption, SEO keywords): real ones under 100. */
export const CMS_NAME_MAX = 200;
/** A summary or a description (a list item's, a topic's, a video's, the site's SEO one): real ones a few hundred. */
export const CMS_SUMMARY_MAX = 600;

/** A text from the CMS, cut to its first `max` characters where it enters (CMS_TEXT_MAX), never inside a pair. */
export function cmsText(max: number = CMS_TEXT_MAX) {
  return z.string().transform((text) => (text.length > max ? cutAt(text, max) : text));
}

function cutAt(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A list from the CMS, cut to its first `max` entries where it enters. */
export function cmsList<Item extends z.ZodType>(item: Item, max: number = CMS_LIST_MAX) {
  return z.preprocess((value) => (Array.isArray(value) && value.length > max ? value.slice(0, max) : value), z.array(item));
}

/** A paged list as the /api/* calls answer it: the page's items and the total over all pages. */
export interface RawPagedList<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
}

/** The schema of a RawPagedList of `item`. */
export function rawPagedListSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ list: cmsList(item), total: count, page: id, page_size: id });
}

export const RawArticleListItemSchema = z.object({
  id,
  catid: id,
  title: cmsText(CMS_NAME_MAX),
  /** Editors' shorter headline for lists; replaces title when not empty (docs/product.md §3). */
  list_title: cmsText(CMS_NAME_MAX),
  description: cmsText(CMS_SUMMARY_MAX),
  thumb: cmsText(),
  /** Unix seconds. */
  adddate: unixSeconds,
  source: cmsText(CMS_NAME_MAX),
});
export type RawArticleListItem = z.infer<typeof RawArticleListItemSchema>;

/** GET /list/{catid}/{pageIndex}.html?pagesize={n} → data */
export const RawArticleListSchema = z.object({
  lists: cmsList(RawArticleListItemSchema),
  total: count,
  page: id,
  pagesize: id,
});
export type RawArticleList = z.infer<typeof RawArticleListSchema>;

export const RawTagSchema = z.object({ id, name: cmsText(CMS_NAME_MAX) });
export type RawTag = z.infer<typeof RawTagSchema>;

/** GET /show/{catid}-{id}.html and GET /api/article/detail?id → data (code 40004 when the article does not exist). */
export const RawArticleDetailSchema = RawArticleListItemSchema.extend({
  catname: cmsText(CMS_NAME_MAX),
  author: cmsText(CMS_NAME_MAX),
  keywords: cmsText(CMS_NAME_MAX),
  /** Body HTML as the CMS stores it: untrusted, sanitised by the portal before rendering. */
  content: z.string(),
  views: count,
  tags: cmsList(RawTagSchema),
  /** 责任编辑: the editor responsible for the article. Optional: older CMS answers leave it out. */
  editor: cmsText(CMS_NAME_MAX).optional(),
  /**
   * The column author (专栏作者, /api/special_column_author) who wrote it, for a column's articles, whose `author`
   * is then that author's name: the page links the name to the author's page. Optional: other articles have none.
   */
  columnist_id: optionalRef.optional(),
});
export type RawArticleDetail = z.infer<typeof RawArticleDetailSchema>;

export const RawMenuFieldSchema = z.object({ name: cmsText(CMS_NAME_MAX), desc: cmsText(CMS_NAME_MAX) });
export type RawMenuField = z.infer<typeof RawMenuFieldSchema>;

/** Menu node: GET /api/common/get_menu_list → data: RawCategory[]; POST /mobile/index/category_index {catid} → data.children. */
export interface RawCategory {
  catid: number;
  catname: string;
  parentid: number;
  categoryDirectory: string;
  /** {name:'template', desc:'1'..'8'} holds the template code (docs/product.md §3); other names are free-form settings. */
  newfield: RawMenuField[];
  children: RawCategory[];
}

// A tree, so the schema is recursive; the interface above names the type, which zod cannot infer through a cycle.
export const RawCategorySchema: z.ZodType<RawCategory, unknown> = z.lazy(() =>
  z.object({
    catid: id,
    catname: cmsText(CMS_NAME_MAX),
    parentid: id,
    categoryDirectory: cmsText(CMS_NAME_MAX),
    newfield: cmsList(RawMenuFieldSchema),
    // A leaf may come without the field: it has no children.
    children: cmsList(RawCategorySchema, CATEGORY_CHILDREN_MAX).default([]),
  }),
);

/** GET /api/common/get_menu_list → data */
export const RawMenuListSchema = cmsList(RawCategorySchema, CATEGORY_CHILDREN_MAX);

/** POST /mobile/index/category_index {catid} → data */
export const RawCategoryIndexSchema = z.object({ children: cmsList(RawCategorySchema, CATEGORY_CHILDREN_MAX).default([]) });
export type RawCategoryIndex = z.infer<typeof RawCategoryIndexSchema>;

/** 1 image, 2 video (docs/product.md §3). */
export const AdTypeSchema: z.ZodType<AdType> = z.union([z.literal(1), z.literal(2)]);

export const RawAdvertisementSchema = z.object({
  id,
  ad_type: AdTypeSchema,
  title: cmsText(CMS_NAME_MAX),
  image: cmsText(),
  video: cmsText(),
  jump_url: cmsText(),
});
export type RawAdvertisement = z.infer<typeof RawAdvertisementSchema>;

/** GET /api/ad/top?catid → data: the ad groups of the detail layout (docs/product.md §3). */
export const RawAdGroupsSchema = z.object({
  detailTop: cmsList(RawAdvertisementSchema, AD_CAROUSEL_MAX),
  hotNewsTop: cmsList(RawAdvertisementSchema, AD_CAROUSEL_MAX),
  hotNewsBot: cmsList(RawAdvertisementSchema, AD_CAROUSEL_MAX),
  hotTopicBot: cmsList(RawAdvertisementSchema, AD_CAROUSEL_MAX),
  specialColBot: cmsList(RawAdvertisementSchema, AD_CAROUSEL_MAX),
});
export type RawAdGroups = z.infer<typeof RawAdGroupsSchema>;

/** Homepage slot by position 1–6 and 8–16 (docs/product.md §3). */
export const RawAdSlotSchema = z.object({ position: z.number().int(), list: cmsList(RawAdvertisementSchema, AD_CAROUSEL_MAX) });
export type RawAdSlot = z.infer<typeof RawAdSlotSchema>;

/** GET /api/ad/list_by_column_id?catid → data */
export const RawAdSlotsSchema = cmsList(RawAdSlotSchema);

export const RawTopicSchema = z.object({
  id,
  title: cmsText(CMS_NAME_MAX),
  description: cmsText(CMS_SUMMARY_MAX),
  cover_image: cmsText(),
  /** JSON text, e.g. '{"switch_value_android":"https://…"}' (docs/product.md §3: jump.switch_value_android from extend). */
  extend: cmsText(),
  adddate: unixSeconds,
});
export type RawTopic = z.infer<typeof RawTopicSchema>;

/** GET /theme/list/{page}?officeId=&pageSize= → data */
export const RawTopicListSchema = z.object({ list: cmsList(RawTopicSchema), total: count });
export type RawTopicList = z.infer<typeof RawTopicListSchema>;

/** GET /theme/get/{id} → data */
export const RawTopicDetailSchema = RawTopicSchema.extend({ articles: cmsList(RawArticleListItemSchema) });
export type RawTopicDetail = z.infer<typeof RawTopicDetailSchema>;

export const RawColumnAuthorSchema = z.object({
  id,
  name: cmsText(CMS_NAME_MAX),
  avatar: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  subscribe_status: z.union([z.literal(0), z.literal(1)]),
});
export type RawColumnAuthor = z.infer<typeof RawColumnAuthorSchema>;

/** GET /api/special_column_author/list?page&page_size → data (docs/product.md §3: list and count). */
export const RawColumnAuthorListSchema = z.object({ list: cmsList(RawColumnAuthorSchema), count });
export type RawColumnAuthorList = z.infer<typeof RawColumnAuthorListSchema>;

export const RawFriendlyLinkSchema = z.object({ name: cmsText(CMS_NAME_MAX), link: cmsText() });
export type RawFriendlyLink = z.infer<typeof RawFriendlyLinkSchema>;

/**
 * GET /api/common/get_site_info?site_id → envelope with `time` and data (docs/product.md §3: seo and friendly_link_list).
 * The path is not given in docs/product.md §7; this is the reference API's and the portal's agreed one.
 */
export const RawSiteInfoSchema = z.object({
  seo: z.object({ seo_title: cmsText(CMS_NAME_MAX), seo_keywords: cmsText(CMS_NAME_MAX), seo_description: cmsText(CMS_SUMMARY_MAX) }),
  friendly_link_list: cmsList(RawFriendlyLinkSchema),
});
export type RawSiteInfo = z.infer<typeof RawSiteInfoSchema>;

/** Grey-mode flag (path not given in docs/product.md §7; GET /api/common/grey_mode): '1' whole layout, '2' home only, else off. */
export const RawGreyModeSchema = z.enum(['0', '1', '2']);
export type RawGreyMode = z.infer<typeof RawGreyModeSchema>;

// ---- Content and discovery calls (docs/product.md §7). Paths and parameters are the product's; shapes are the reference API's. ----

/** GET /api/rmt/search_all?q&type&page&page_size → data (type 1 last 30 days, 2 all; newest first; empty q → empty list). */
export const RawSearchResultSchema = rawPagedListSchema(RawArticleListItemSchema).extend({
  /** The keyword as the server understood it (trimmed). */
  q: cmsText(CMS_NAME_MAX),
  type: z.union([z.literal(1), z.literal(2)]),
});
export type RawSearchResult = z.infer<typeof RawSearchResultSchema>;

/** GET /api/rmt/get_headline_news?page&page_size → data (headline articles, newest first). */
export const RawHeadlineNewsSchema = rawPagedListSchema(RawArticleListItemSchema);
export type RawHeadlineNews = z.infer<typeof RawHeadlineNewsSchema>;

/**
 * GET /api/rmt/news_search_init?tag_id&columnist_id&q&themeid&page&page_size → data: articles by tag, column
 * author, topic and/or keyword (filters combine), newest first, with the entity each id filter named.
 */
export const RawNewsSearchInitSchema = rawPagedListSchema(RawArticleListItemSchema).extend({
  tag: RawTagSchema.nullable(),
  columnist: RawColumnAuthorSchema.nullable(),
  theme: RawTopicSchema.nullable(),
});
export type RawNewsSearchInit = z.infer<typeof RawNewsSearchInitSchema>;

/** GET /api/rmt/get_parent_category?id(&type=1) → data: the chain from the top-level ancestor down to the category. */
export const RawParentCategorySchema = z.object({
  /** Root first, the category itself last; children empty, except with type=1 where each node has its direct children. */
  list: cmsList(RawCategorySchema),
});
export type RawParentCategory = z.infer<typeof RawParentCategorySchema>;

/** GET /api/special_column_author/info?id → data */
export const RawColumnAuthorInfoSchema = RawColumnAuthorSchema.extend({
  /** Articles the author has published in the columns (news_search_init?columnist_id lists them). */
  article_count: count,
  title: cmsText(CMS_NAME_MAX),
});
export type RawColumnAuthorInfo = z.infer<typeof RawColumnAuthorInfoSchema>;

/** One update on a news-tracking timeline: the article plus its place in the story. */
export const RawSpecialTimelineItemSchema = RawArticleListItemSchema.extend({
  /** Editor's label of the stage, e.g. '最新进展'. */
  stage: cmsText(CMS_NAME_MAX),
});
export type RawSpecialTimelineItem = z.infer<typeof RawSpecialTimelineItemSchema>;

/** One 专题 / 新闻追踪 report. */
export const RawSpecialReportSchema = z.object({
  id,
  catid: id,
  title: cmsText(CMS_NAME_MAX),
  cover: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  /** Unix seconds of the latest update. */
  adddate: unixSeconds,
  /** 1 still being updated, 2 concluded. */
  status: z.union([z.literal(1), z.literal(2)]),
  /** Oldest first: the order a timeline is read in. */
  article_ids: cmsList(id),
  articles: cmsList(RawSpecialTimelineItemSchema),
});
export type RawSpecialReport = z.infer<typeof RawSpecialReportSchema>;

/** GET /api/special/list_by_catid?catid(&id) → data: the reports of the category and its descendants. */
export const RawSpecialReportsSchema = cmsList(RawSpecialReportSchema);

export const RawImageSchema = z.object({ url: cmsText(), width: z.number(), height: z.number(), caption: cmsText(CMS_NAME_MAX) });
export type RawImage = z.infer<typeof RawImageSchema>;

/** 精品: type 1 picture story for /hd, 2 poster for /poster. */
export const RawBoutiqueItemSchema = z.object({
  id,
  type: z.union([z.literal(1), z.literal(2)]),
  title: cmsText(CMS_NAME_MAX),
  description: cmsText(CMS_SUMMARY_MAX),
  cover: cmsText(),
  images: cmsList(RawImageSchema, GALLERY_IMAGES_MAX),
  adddate: unixSeconds,
});
export type RawBoutiqueItem = z.infer<typeof RawBoutiqueItemSchema>;

/** GET /api/boutique/list?page&page_size(&type) → data */
export const RawBoutiqueListSchema = rawPagedListSchema(RawBoutiqueItemSchema);
export type RawBoutiqueList = z.infer<typeof RawBoutiqueListSchema>;

/** 视刻 short-video category. */
export const RawShikeCategorySchema = z.object({
  id,
  name: cmsText(CMS_NAME_MAX),
  cover: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  video_count: count,
});
export type RawShikeCategory = z.infer<typeof RawShikeCategorySchema>;

/** GET /api/video_album/shike_video_category → data */
export const RawShikeCategoriesSchema = cmsList(RawShikeCategorySchema, SHIKE_CATEGORIES_MAX);

/** GET /api/video/detail?id and GET /api/video_album/shike_video_item?id → data */
export const RawVideoSchema = z.object({
  id,
  /** Portal category the video is filed under (/video/{catid}/{id}). */
  catid: id,
  /** 视刻 category id. */
  category_id: id,
  title: cmsText(CMS_NAME_MAX),
  cover: cmsText(),
  /** HLS media playlist (fMP4 segments). */
  hls_url: cmsText(),
  /** Seconds; equals the stream's real length. */
  duration: z.number().nonnegative(),
  description: cmsText(CMS_SUMMARY_MAX),
  adddate: unixSeconds,
  views: count,
  source: cmsText(CMS_NAME_MAX),
  /** The albums the video belongs to (a CMS without albums sends none). */
  albums: cmsList(z.object({ id, title: cmsText(CMS_NAME_MAX) }), VIDEO_ALBUMS_MAX).default([]),
});
export type RawVideo = z.infer<typeof RawVideoSchema>;

/** GET /api/video_album/shike_video_category_item?id&page&page_size → data */
export const RawShikeCategoryItemsSchema = rawPagedListSchema(RawVideoSchema).extend({ category: RawShikeCategorySchema });
export type RawShikeCategoryItems = z.infer<typeof RawShikeCategoryItemsSchema>;

/** GET /api/video_album/detail?id → data */
export const RawVideoAlbumSchema = z.object({
  id,
  title: cmsText(CMS_NAME_MAX),
  cover: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  adddate: unixSeconds,
  videos: cmsList(RawVideoSchema, ALBUM_VIDEOS_MAX),
});
export type RawVideoAlbum = z.infer<typeof RawVideoAlbumSchema>;

/** 1 live now, 2 upcoming, 3 ended (docs/product.md: live/list show_type). */
export const LiveStatusSchema: z.ZodType<LiveStatus> = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/** GET /api/live/list?show_type&page&page_size → data: RawPagedList<RawLive>; GET /api/live/info?id and /api/live/detail?id → data */
export const RawLiveSchema = z.object({
  id,
  catid: id,
  title: cmsText(CMS_NAME_MAX),
  cover: cmsText(),
  status: LiveStatusSchema,
  /** Unix seconds. */
  start_time: unixSeconds,
  end_time: unixSeconds,
  /** The live stream while status is 1, else ''. */
  hls_url: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  /** Readers watching (live) or who watched (ended); 0 for upcoming. */
  views: count,
});
export type RawLive = z.infer<typeof RawLiveSchema>;

/** GET /api/live/list?show_type&page&page_size → data */
export const RawLiveListSchema = rawPagedListSchema(RawLiveSchema);

/** A recording of an ended live. */
export const RawLivePlaybackSchema = z.object({
  id,
  live_id: id,
  title: cmsText(CMS_NAME_MAX),
  cover: cmsText(),
  hls_url: cmsText(),
  duration: z.number().nonnegative(),
  adddate: unixSeconds,
});
export type RawLivePlayback = z.infer<typeof RawLivePlaybackSchema>;

/** GET /api/live/playback_list?id&page&page_size → data */
export const RawLivePlaybackListSchema = rawPagedListSchema(RawLivePlaybackSchema);

/** An article's clickable area on a newspaper page, in page-image pixels. */
export const RawNewspaperAreaSchema = z.object({
  article_id: id,
  title: cmsText(CMS_NAME_MAX),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type RawNewspaperArea = z.infer<typeof RawNewspaperAreaSchema>;

/** 版面 */
export const RawNewspaperPageSchema = z.object({
  page_no: z.number().int(),
  /** E.g. '要闻'. */
  name: cmsText(CMS_NAME_MAX),
  /** 1200×1700 SVG. */
  image: cmsText(),
  width: z.number(),
  height: z.number(),
  areas: cmsList(RawNewspaperAreaSchema, NEWSPAPER_AREAS_MAX),
});
export type RawNewspaperPage = z.infer<typeof RawNewspaperPageSchema>;

export const RawNewspaperIssueSchema = z.object({
  id,
  /** The paper's category (template 3): 2761 中国青年报, 2762 青年参考. */
  catid: id,
  paper_name: cmsText(CMS_NAME_MAX),
  /** 'YYYY-MM-DD' in Asia/Shanghai; null when the CMS sent no usable date (cmsIssueDate). */
  issue_date: z.unknown().optional().transform(cmsIssueDate),
  /** Running issue number of the paper. */
  issue_no: z.number().int(),
  adddate: unixSeconds,
  pages: cmsList(RawNewspaperPageSchema, NEWSPAPER_PAGES_MAX),
});
export type RawNewspaperIssue = z.infer<typeof RawNewspaperIssueSchema>;

/** GET /api/rmt/read_newspapers_search?q&catid(&page&page_size) → data (issues newest first). */
export const RawNewspaperSearchSchema = rawPagedListSchema(RawNewspaperIssueSchema);
export type RawNewspaperSearch = z.infer<typeof RawNewspaperSearchSchema>;

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

// ---- Signed-in reader's lists and the account-side calls (docs/product.md §7). Shapes are the reference API's. ----

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

// The answers the browser reads itself through the /api proxy (RawJsSdkSignature, RawFeedbackReceipt) are in
// shared/types/interactions.ts: both sides name them.
export type { RawFeedbackReceipt, RawJsSdkSignature } from '../../shared/types/interactions';
