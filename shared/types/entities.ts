/** Entities as the portal renders them (docs/product.md §3), normalised from ./upstream.ts by server/upstream. */
import type { AdType } from './upstream';
import type { RawBoutiqueItem, RawLive, RawLivePlayback, RawNewspaperIssue, RawShikeCategory, RawVideo } from './upstream';

export interface ArticleSummary {
  id: number;
  catid: number;
  /** list_title when the CMS set one, else title. */
  title: string;
  /** The full headline (detail pages, feeds and share cards use it, not list_title). */
  fullTitle: string;
  description: string;
  thumb: string;
  /** Unix seconds; null when the CMS sent no usable date (shared/types/upstream.ts cmsDateSeconds): no time is shown. */
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

// ---- Media, discovery and e-paper entities. Their wire shapes are already what pages read, so they are the
// wire types under the names pages use; only article lists inside them are normalised (list_title rule).

export type Video = RawVideo;
export type Live = RawLive;
export type LivePlayback = RawLivePlayback;
export type ShikeCategory = RawShikeCategory;
export type BoutiqueItem = RawBoutiqueItem;
/** An issue with a usable date (shared/types/upstream.ts cmsIssueDate): one without is left out where it enters. */
export type NewspaperIssue = RawNewspaperIssue & { issue_date: string };

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
