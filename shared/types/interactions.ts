/**
 * The calls the browser makes itself through the portal's /api proxy, as the CMS takes and answers them. The reader
 * interactions of docs/product.md §4/§7: likes and collections are marks on an article (or a video) keyed by
 * category and id; subscriptions are marks on a column author or a tag; each needs a signed-in reader (the proxy
 * adds the token). Then the WeChat share signature and the feedback receipt. The shapes are the reference API's.
 */

/** Marks on one article or video: thumbsup (like), collection (articles), collection_video (videos). */
export type ArticleMarkKind = 'thumbsup' | 'collection' | 'collection_video';
/** Subscriptions: a column author (special_column_author / column_subscribe) or a tag. */
export type SubscriptionKind = 'author' | 'tag';
export type InteractionKind = ArticleMarkKind | SubscriptionKind;

/** What one button acts on. Article marks need the category too: the CMS keys them by catid and id. */
export type InteractionTarget = { kind: ArticleMarkKind; catid: number; id: number } | { kind: SubscriptionKind; id: number };

/** A set of targets of one kind shown together (a list of authors, an article's like), asked about in one call. */
export type InteractionGroup = { kind: ArticleMarkKind; catid: number; ids: readonly number[] } | { kind: SubscriptionKind; ids: readonly number[] };

// ---- wire shapes ----

/** POST /api/{thumbsup|collection|collection_video}/toggle */
export interface ArticleToggleBody {
  catid: number;
  article_id: number;
}

/** POST /api/special_column_author/toggle */
export interface AuthorToggleBody {
  author_id: number;
}

/** POST /api/tag/toggle */
export interface TagToggleBody {
  tag_id: number;
}

/** → data of an article toggle: the mark as it now is. */
export interface ArticleToggleAnswer {
  status: 0 | 1;
}

/** → data of a subscription toggle: the subscription as it now is. */
export interface SubscriptionToggleAnswer {
  subscribe_status: 0 | 1;
}

/** POST /api/{thumbsup|collection|collection_video}/batch_exist */
export interface ArticleBatchExistBody {
  catid: number;
  list: number[];
}

/** POST /api/column_subscribe/batch_exist, POST /api/tag/batch_exist */
export interface SubscriptionBatchExistBody {
  list: number[];
}

/** → data of every batch_exist: {id: 0 | 1} for each id asked about. */
export type BatchExistAnswer = Record<string, 0 | 1>;

/** GET /api/thumbsup/get_num?article_id&catid → data */
export interface CountAnswer {
  num: number;
}

export type ToggleBody = ArticleToggleBody | AuthorToggleBody | TagToggleBody;
export type BatchExistBody = ArticleBatchExistBody | SubscriptionBatchExistBody;

/** A call as the browser sends it through the portal's proxy. */
export type ApiCall<Body> = { method: 'POST'; path: string; body: Body } | { method: 'GET'; path: string };

/**
 * GET /api/wechat/get_jssdk_signature?url → data: what wx.config needs (docs/product.md §3 WeChat share config, less `debug`,
 * which the page chooses). signature = sha1("jsapi_ticket=…&noncestr=…&timestamp=…&url=…"), url without its hash.
 */
export interface RawJsSdkSignature {
  appId: string;
  /** Unix seconds. */
  timestamp: number;
  nonceStr: string;
  signature: string;
}

/** POST /api/common/feedback {content, contact} → data (docs/product.md §7 leaves the body open; shared/feedback.ts has the rules). */
export interface RawFeedbackReceipt {
  id: number;
}
