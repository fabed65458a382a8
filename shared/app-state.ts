/**
 * The state a server render hands to the browser (serialised into the document) and that client navigations
 * replace page by page. Everything here is public: of the reader's session only the public profile goes in it
 * (never the token), and only in pages rendered for that reader, which are never cached.
 */
import type { ImagePipeline } from './image-pipeline';
import type { MenuEntry } from './menu';
import type { PageData, PageId } from './page-data';
import type { RouteParams } from './route-params';
import type { ArticleSummary, FriendlyLink, GreyMode, SiteSeo } from './types/entities';

/** What the document head says about a page; the server writes it, the client applies it after navigation. */
export interface PageHead {
  title: string;
  description: string;
  keywords: string;
  /** Open Graph type; 'website' when absent. */
  ogType?: 'website' | 'article' | 'video.other';
  /** Picture for shares and previews (absolute URL). */
  image?: string;
  /** The category whose RSS feed the page advertises (`/rss/{catid}.xml`); the site's hot-news feed when absent. */
  feedCatid?: number;
  /** schema.org structured data (NewsArticle, VideoObject, …), written as JSON-LD. */
  jsonLd?: Record<string, unknown> | ReadonlyArray<Record<string, unknown>>;
  /**
   * The page's one path, when a second one of the site's own answers it too (home at `/home`): the canonical link
   * and og:url name it. Absent: the page's own address.
   */
  canonicalPath?: string;
}

/** What the header's banner shows of an article. */
export type BannerArticle = Pick<ArticleSummary, 'id' | 'catid' | 'title' | 'thumb'>;

/** Data every layout needs (header menu and banner, footer links, site SEO, grey mode): server/pages/layout.ts loads it. */
export interface LayoutData {
  /** The header's menu with each item's target worked out (shared/menu.ts). */
  menu: MenuEntry[];
  /** The header's banner article: what its picture link shows. */
  banner: BannerArticle[];
  friendlyLinks: FriendlyLink[];
  seo: SiteSeo;
  greyMode: GreyMode;
}

/** A page id, or one of the two pages every route can end on. */
export type RenderedPage = PageId | 'not-found' | 'error';

interface PageStateBase {
  /** pathname + search the state was made for. */
  path: string;
  params: RouteParams;
  status: number;
  head: PageHead;
  /** Unix seconds of the render; relative times are computed against it on both sides. */
  now: number;
  /** For the error page: what to tell the reader. */
  message?: string;
  /**
   * Grey mode when a client navigation's data was read: an open tab follows a flag switched since its document
   * was made. Absent from documents, whose layout carries it.
   */
  greyMode?: GreyMode;
}

/**
 * A page its loader filled, one member per page id (so `state.page === 'detail'` narrows `data` to the detail
 * page's data, and a component is handed exactly what its loader returned).
 */
export type LoadedPageState<P extends PageId = PageId> = {
  [Q in P]: PageStateBase & { routeId: string; page: Q; data: PageData<Q> };
}[P];

/** The 404 and error pages: no route, no data. */
export type StatusPageState = {
  [S in 'not-found' | 'error']: PageStateBase & { routeId: null; page: S; data: null };
}['not-found' | 'error'];

export type PageState = LoadedPageState | StatusPageState;

export interface PublicSite {
  id: number;
  name: string;
  domain: string;
  isMain: boolean;
}

/** What the page may know of a signed-in reader (docs/product.md §4: signed in means user_id is present). */
export interface PublicUser {
  user_id: number;
  nickname: string;
  avatar: string;
}

export interface AppState {
  buildId: string;
  site: PublicSite;
  /** The signed-in reader; null for anonymous (and so every cached) page. */
  user: PublicUser | null;
  /** Where a page opened inside WeChat loads the JS-SDK from (set by WECHAT_JSSDK_URL). */
  wechatJsSdkUrl: string;
  /** Where pictures are resized (IMAGE_RESIZER): the `srcset` of every CMS picture goes through it. */
  images: ImagePipeline;
  /** WeChat sign-in is configured (the dialog frames the QR page); otherwise the dialog says it is not open. */
  signInAvailable: boolean;
  layout: LayoutData;
  page: PageState;
  /** An editor's preview of drafts (never stored, never shown to readers): the page carries the preview banner. */
  preview: boolean;
}

/**
 * Answer of the server's page data endpoint to a client navigation: the page; another path of the portal to go
 * to instead (in the app); or a URL to load as a document instead (a phone opening an article: the mobile site).
 */
export type PageDataResponse =
  { kind: 'page'; page: PageState } | { kind: 'redirect'; location: string; permanent?: boolean } | { kind: 'document'; location: string };

export const STATE_SCRIPT_ID = '__PORTAL_STATE__';
export const PAGE_DATA_ENDPOINT = '/_data/page';
export const RESOURCE_ENDPOINT = '/_data/resource';
