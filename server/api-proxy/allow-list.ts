/**
 * The only /api paths the browser may reach through the portal: the account, interaction and discovery calls of
 * docs/product.md §7, each with its method. Sign-in and logout are not here (the server does them itself, so the token is
 * never in a browser request or answer), nor is /api/oss/sts (upload credentials have no reader-facing use yet).
 */
export type ProxyMethod = 'GET' | 'POST';

const ENTRIES: ReadonlyArray<readonly [ProxyMethod, string | RegExp]> = [
  ['POST', '/api/user/profile'],
  ['GET', '/api/wechat/get_jssdk_signature'],
  ['POST', '/api/common/feedback'],
  ['POST', '/api/thumbsup/batch_exist'],
  ['POST', '/api/thumbsup/toggle'],
  ['GET', '/api/thumbsup/get_num'],
  ...(['collection', 'collection_video'] as const).flatMap((family) => [
    ['POST', `/api/${family}/batch_exist`] as const,
    ['POST', `/api/${family}/toggle`] as const,
    ['GET', `/api/${family}/list_and_article_detail`] as const,
  ]),
  ['POST', '/api/column_subscribe/batch_exist'],
  ['POST', '/api/column_subscribe/toggle'],
  ['GET', '/api/column_subscribe/list'],
  ['GET', '/api/special_column_author/list'],
  ['GET', '/api/special_column_author/info'],
  ['POST', '/api/special_column_author/toggle'],
  ['GET', '/api/special_column_author/subscribe_list'],
  ['POST', '/api/tag/batch_exist'],
  ['POST', '/api/tag/toggle'],
  ['GET', '/api/tag/get_subscribe_list'],
  ['POST', '/api/rmt/batch_article_detail'],
  ['GET', '/api/rmt/search_all'],
  ['GET', '/api/rmt/news_search_init'],
  ['GET', '/api/rmt/get_parent_category'],
  ['GET', '/api/rmt/read_newspapers_search'],
  ['GET', '/api/rmt/get_headline_news'],
  // GET /api/{product}/detail?id: product names are short lowercase words.
  ['GET', /^\/api\/[a-z][a-z_]{0,31}\/detail$/],
  ['GET', '/api/ad/list_by_column_id'],
  ['GET', '/api/ad/top'],
  ['GET', '/api/boutique/list'],
  ['GET', '/api/common/get_domain_by_catId'],
  ['GET', '/api/special/list_by_catid'],
  ['GET', '/api/video_album/shike_video_category'],
  ['GET', '/api/video_album/shike_video_category_item'],
  ['GET', '/api/video_album/shike_video_item'],
  ['GET', '/api/live/list'],
  ['GET', '/api/live/info'],
  ['GET', '/api/live/playback_list'],
  ['GET', '/api/common/app_skin'],
  ['GET', '/api/common/get_menu_list'],
];

/**
 * The POSTs above that only read (states of a batch of items, a batch of articles, the reader's profile): the
 * upstream client may send them again on a fresh socket when a kept-alive one turns out closed; toggles and
 * feedback are writes and are never sent twice.
 */
const READING_POSTS: ReadonlySet<string> = new Set([
  '/api/user/profile',
  '/api/thumbsup/batch_exist',
  '/api/collection/batch_exist',
  '/api/collection_video/batch_exist',
  '/api/column_subscribe/batch_exist',
  '/api/tag/batch_exist',
  '/api/rmt/batch_article_detail',
]);

/** Whether an allowed call only reads: every GET, and the POSTs listed as reads. */
export function onlyReads(method: ProxyMethod, path: string): boolean {
  return method === 'GET' || READING_POSTS.has(path);
}

/** The methods a path is proxied for (none: not a proxied path), exact match as isAllowed's. */
export function allowedMethods(path: string): ProxyMethod[] {
  const methods = ENTRIES.filter(([, pattern]) => (typeof pattern === 'string' ? pattern === path : pattern.test(path))).map(([method]) => method);
  return [...new Set(methods)];
}

/** Exact match on the decoded path as Express routes it; no prefixes, no trailing slashes, no dot segments. */
export function isAllowed(method: string, path: string): method is ProxyMethod {
  return ENTRIES.some(([allowedMethod, pattern]) => allowedMethod === method && (typeof pattern === 'string' ? pattern === path : pattern.test(path)));
}
