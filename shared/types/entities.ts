/**
 * Entities as the portal renders them (docs/product.md §3), normalised by server/upstream from the CMS's wire
 * shapes (server/upstream/wire.ts).
 */

export interface ArticleSummary {
  id: number;
  catid: number;
  /** list_title when the CMS set one, else title. */
  title: string;
  /** The full headline (detail pages, feeds and share cards use it, not list_title). */
  fullTitle: string;
  description: string;
  thumb: string;
  /** Unix seconds; null when the CMS sent no usable date (server/upstream/wire.ts cmsDateSeconds): no time is shown. */
  adddate: number | null;
  source: string;
}

/** What a list of article links shows (shared/ui/blocks/ArticleList.tsx): pages listing only links send only this. */
export type ArticleLink = Pick<ArticleSummary, 'id' | 'catid' | 'title' | 'adddate'>;

export function articleLink({ id, catid, title, adddate }: ArticleLink): ArticleLink {
  return { id, catid, title, adddate };
}

export interface ArticlePage {
  items: ArticleSummary[];
  total: number;
  page: number;
  pageSize: number;
}

export interface Article extends ArticleSummary {
  catname: string;
  author: string;
  keywords: string;
  /** Sanitised body HTML, safe to render. */
  contentHtml: string;
  views: number;
  tags: Tag[];
  /** 责任编辑; '' when the CMS sent none. */
  editor: string;
  /** The column author whose name `author` is (their page: /specialColumnDetail/{id}); null for other articles. */
  columnistId: number | null;
}

export interface Tag {
  id: number;
  name: string;
}

export type TemplateCode = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface Category {
  catid: number;
  catname: string;
  parentid: number;
  categoryDirectory: string;
  /** From newfield {name:'template'}; null when the CMS left it out (docs/product.md §5 warnings). */
  template: TemplateCode | null;
  /** Whether the CMS set a template field at all (a missing one and a bad one warn differently, docs/product.md §5). */
  templateField: boolean;
  children: Category[];
}

/** 1 image, 2 video (docs/product.md §3). */
export type AdType = 1 | 2;

export interface Advertisement {
  id: number;
  type: AdType;
  title: string;
  image: string;
  video: string;
  href: string;
}

export type AdGroupName = 'detailTop' | 'hotNewsTop' | 'hotNewsBot' | 'hotTopicBot' | 'specialColBot';
export type AdGroups = Record<AdGroupName, Advertisement[]>;

export interface Topic {
  id: number;
  title: string;
  description: string;
  thumb: string;
  jump: { switch_value_android: string };
}

/** What a topic cover shows (shared/ui/blocks/RecommendedTopics.tsx). */
export type TopicCover = Omit<Topic, 'description'>;

export interface TopicDetail {
  topic: Topic;
  articles: ArticleSummary[];
}

export interface ColumnAuthor {
  id: number;
  name: string;
  avatar: string;
  description: string;
  subscribed: boolean;
}

export interface FriendlyLink {
  name: string;
  link: string;
}

export interface SiteSeo {
  title: string;
  keywords: string;
  description: string;
}

export type GreyMode = 'off' | 'layout' | 'home';

// ---- Media, discovery and e-paper entities. Their wire shapes are already what pages read, so each is its wire
// type (server/upstream/wire.ts) under the name pages use; only article lists inside them are normalised
// (list_title rule). Dates are Unix seconds, null when the CMS sent no usable one.

export interface Video {
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
  adddate: number | null;
  views: number;
  source: string;
  /** The albums the video belongs to. */
  albums: Array<{ id: number; title: string }>;
}

/** 1 live now, 2 upcoming, 3 ended (docs/product.md: live/list show_type). */
export type LiveStatus = 1 | 2 | 3;

export interface Live {
  id: number;
  catid: number;
  title: string;
  cover: string;
  status: LiveStatus;
  start_time: number | null;
  end_time: number | null;
  /** The live stream while status is 1, else ''. */
  hls_url: string;
  description: string;
  /** Readers watching (live) or who watched (ended); 0 for upcoming. */
  views: number;
}

/** A recording of an ended live. */
export interface LivePlayback {
  id: number;
  live_id: number;
  title: string;
  cover: string;
  hls_url: string;
  duration: number;
  adddate: number | null;
}

/** 视刻 short-video category. */
export interface ShikeCategory {
  id: number;
  name: string;
  cover: string;
  description: string;
  video_count: number;
}

export interface BoutiqueImage {
  url: string;
  width: number;
  height: number;
  caption: string;
}

/** 精品: type 1 picture story for /hd, 2 poster for /poster. */
export interface BoutiqueItem {
  id: number;
  type: 1 | 2;
  title: string;
  description: string;
  cover: string;
  images: BoutiqueImage[];
  adddate: number | null;
}

/** An article's clickable area on a newspaper page, in page-image pixels. */
export interface NewspaperArea {
  article_id: number;
  title: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** 版面 */
export interface NewspaperPage {
  page_no: number;
  /** E.g. '要闻'. */
  name: string;
  /** 1200×1700 SVG. */
  image: string;
  width: number;
  height: number;
  areas: NewspaperArea[];
}

/** An issue with a usable date (server/upstream/wire.ts cmsIssueDate): one without is left out where it enters. */
export interface NewspaperIssue {
  id: number;
  /** The paper's category (template 3): 2761 中国青年报, 2762 青年参考. */
  catid: number;
  paper_name: string;
  /** 'YYYY-MM-DD' in Asia/Shanghai. */
  issue_date: string;
  /** Running issue number of the paper. */
  issue_no: number;
  adddate: number | null;
  pages: NewspaperPage[];
}

export interface VideoAlbum {
  id: number;
  title: string;
  cover: string;
  description: string;
  adddate: number | null;
  videos: Video[];
}

export interface ColumnAuthorInfo extends ColumnAuthor {
  title: string;
  articleCount: number;
}

export interface SpecialReport {
  id: number;
  catid: number;
  title: string;
  cover: string;
  description: string;
  adddate: number | null;
  ongoing: boolean;
  /** Oldest first. */
  timeline: Array<{ stage: string; article: ArticleSummary }>;
}

export interface Paged<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}
