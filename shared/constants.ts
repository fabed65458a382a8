/** Business constants of docs/product.md §9. One place, imported by server, client and the reference API. */
export const HOME_CATID = 2727;
export const BANNER_CATID = 2788;
export const DETAIL_SIDE_CATID = 2789;
export const MINGDI_ID = 2807;
export const MINGDI_DETAIL_ID = 2777;
export const YOUTHNEWS_ID = 2808;
export const YOUTHNEWS_DETAIL_ID = 2776;
export const MESSAGE_ID = 2843;
export const ABOUT_ID = 2941;
export const CONTRIBUTE_ID = 2947;
export const MOVE_INTO_ID = 2992;
export const SEEKING_REPORT_ID = 2991;
export const ELECTRONIC_ID = 3094;
export const COLUMN_INTRODUCE_ID = 3095;
export const HOT_NEWS_ID = 3281;
/** Parent category whose template-8 children live on a province domain (docs/product.md §2 menu clicks). */
export const PROVINCE_PARENT_CATID = 3257;
/** docs/product.md §9 says a theme office id exists but not its value; the reference API and config agree on this one. */
export const DEFAULT_THEME_OFFICE_ID = 1;
export const PAGE_WIDTH_PX = 1296;
export const BACK_TO_TOP_THRESHOLD_PX = 400;

export const HOT_NEWS_SIZE = 5;
export const BANNER_SIZE = 1;
export const BANNER_HEIGHT_PX = 200;
export const READING_LIST_SIZE = 10;
export const RECOMMENDED_TOPICS_SHOWN = 4;
export const SPECIAL_COLUMN_PAGE_SIZE = 4;
export const SEARCH_HISTORY_MAX = 20;
export const HOME_CATEGORY_LIST_SIZE = 8;
/** The most category blocks a home page shows (and so lists it asks for): twice the largest real home (8). */
export const HOME_MAX_BLOCKS = 16;

export const SEARCH_TYPE_RECENT = 1;
export const SEARCH_TYPE_ALL = 2;

/** Strings shown to readers exactly as docs/product.md writes them. */
export const TEXT = {
  notFound: '页面不存在',
  errorDefault: '出错了',
  unknownMiddleware: '未知的中间件',
  requestFailed: '失败',
  backHome: '返回首页',
  hotNewsTitle: '热点新闻',
  recommendedTopicsTitle: '热门专题',
  previous: '上一篇',
  next: '下一篇',
  copySuccess: '操作成功',
  loginTitle: '微信登录',
  shareTitle: '分享到微信朋友圈',
  copyLink: '复制链接',
} as const;
