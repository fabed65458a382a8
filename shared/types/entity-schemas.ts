/**
 * The shapes of ./entities.ts as zod schemas: what a cached content answer must be to be read (server/cache
 * cache.ts checkedJsonCodec). An answer is checked where it enters (./upstream.ts) and stored normalised; what
 * Redis hands back is checked again against these, once per decode, so an entry of another shape is a miss, never
 * a page that fails on it. Each schema is typed by its entity, so the two cannot drift apart.
 */
import { z } from 'zod';
import type { HomeAdSlot, SiteInfo } from '../content-api';
import type {
  AdGroups,
  Advertisement,
  Article,
  ArticlePage,
  ArticleSummary,
  Category,
  ColumnAuthor,
  ColumnAuthorInfo,
  GreyMode,
  NewspaperIssue,
  Paged,
  SpecialReport,
  Tag,
  TemplateCode,
  Topic,
  TopicDetail,
  VideoAlbum,
} from './entities';
import {
  AdTypeSchema,
  cmsIssueDate,
  RawBoutiqueItemSchema,
  RawLivePlaybackSchema,
  RawLiveSchema,
  RawNewspaperIssueSchema,
  RawShikeCategorySchema,
  RawVideoSchema,
  unixSeconds,
} from './upstream';

// The wire-shaped entities (Video, Live, …) are stored as they entered: their wire schemas read them again
// (a date already read reads the same; cut lists stay cut).
export { RawBoutiqueItemSchema as BoutiqueItemSchema, RawLivePlaybackSchema as LivePlaybackSchema, RawLiveSchema as LiveSchema };
export { RawShikeCategorySchema as ShikeCategorySchema, RawVideoSchema as VideoSchema };

/** An issue as stored: its date one cmsIssueDate accepts as it is. */
export const NewspaperIssueSchema: z.ZodType<NewspaperIssue, unknown> = RawNewspaperIssueSchema.extend({
  issue_date: z.string().refine((value) => cmsIssueDate(value) === value, 'not a usable issue date'),
});

/** What every article shape has: a summary is these, the whole article these and more. */
const articleSummaryFields = {
  id: z.number(),
  catid: z.number(),
  title: z.string(),
  fullTitle: z.string(),
  description: z.string(),
  thumb: z.string(),
  adddate: unixSeconds,
  source: z.string(),
};

export const ArticleSummarySchema: z.ZodType<ArticleSummary, unknown> = z.object(articleSummaryFields);

export const ArticlePageSchema: z.ZodType<ArticlePage, unknown> = z.object({
  items: z.array(ArticleSummarySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const TagSchema: z.ZodType<Tag, unknown> = z.object({ id: z.number(), name: z.string() });

export const ArticleSchema: z.ZodType<Article, unknown> = z.object({
  ...articleSummaryFields,
  catname: z.string(),
  author: z.string(),
  keywords: z.string(),
  contentHtml: z.string(),
  views: z.number(),
  tags: z.array(TagSchema),
  editor: z.string(),
});

const TemplateCodeSchema: z.ZodType<TemplateCode, unknown> = z.union([1, 2, 3, 4, 5, 6, 7, 8].map((code) => z.literal(code as TemplateCode)));

export const CategorySchema: z.ZodType<Category, unknown> = z.lazy(() =>
  z.object({
    catid: z.number(),
    catname: z.string(),
    parentid: z.number(),
    categoryDirectory: z.string(),
    template: TemplateCodeSchema.nullable(),
    templateField: z.boolean(),
    children: z.array(CategorySchema),
  }),
);

export const AdvertisementSchema: z.ZodType<Advertisement, unknown> = z.object({
  id: z.number(),
  type: AdTypeSchema,
  title: z.string(),
  image: z.string(),
  video: z.string(),
  href: z.string(),
});

export const AdGroupsSchema: z.ZodType<AdGroups, unknown> = z.object({
  detailTop: z.array(AdvertisementSchema),
  hotNewsTop: z.array(AdvertisementSchema),
  hotNewsBot: z.array(AdvertisementSchema),
  hotTopicBot: z.array(AdvertisementSchema),
  specialColBot: z.array(AdvertisementSchema),
});

export const HomeAdSlotSchema: z.ZodType<HomeAdSlot, unknown> = z.object({ position: z.number(), ads: z.array(AdvertisementSchema) });

export const SiteInfoSchema: z.ZodType<SiteInfo, unknown> = z.object({
  seo: z.object({ title: z.string(), keywords: z.string(), description: z.string() }),
  friendlyLinks: z.array(z.object({ name: z.string(), link: z.string() })),
});

export const GreyModeSchema: z.ZodType<GreyMode, unknown> = z.enum(['off', 'layout', 'home']);

export const TopicSchema: z.ZodType<Topic, unknown> = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  thumb: z.string(),
  jump: z.object({ switch_value_android: z.string() }),
});

export const TopicDetailSchema: z.ZodType<TopicDetail, unknown> = z.object({ topic: TopicSchema, articles: z.array(ArticleSummarySchema) });

export const ColumnAuthorSchema: z.ZodType<ColumnAuthor, unknown> = z.object({
  id: z.number(),
  name: z.string(),
  avatar: z.string(),
  description: z.string(),
  subscribed: z.boolean(),
});

export const ColumnAuthorInfoSchema: z.ZodType<ColumnAuthorInfo, unknown> = z.object({
  id: z.number(),
  name: z.string(),
  avatar: z.string(),
  description: z.string(),
  subscribed: z.boolean(),
  title: z.string(),
  articleCount: z.number(),
});

export const VideoAlbumSchema: z.ZodType<VideoAlbum, unknown> = z.object({
  id: z.number(),
  title: z.string(),
  cover: z.string(),
  description: z.string(),
  adddate: unixSeconds,
  videos: z.array(RawVideoSchema),
});

export const SpecialReportSchema: z.ZodType<SpecialReport, unknown> = z.object({
  id: z.number(),
  catid: z.number(),
  title: z.string(),
  cover: z.string(),
  description: z.string(),
  adddate: unixSeconds,
  ongoing: z.boolean(),
  timeline: z.array(z.object({ stage: z.string(), article: ArticleSummarySchema })),
});

/** A page of `item`s as pages read it. */
export function pagedSchema<T>(item: z.ZodType<T, unknown>): z.ZodType<Paged<T>, unknown> {
  return z.object({ list: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });
}

/** What each content call stores (server/upstream/content-calls/): its normalised value, null where 'not found' is one. */
export const STORED = {
  categories: z.array(CategorySchema),
  articlePage: ArticlePageSchema,
  article: ArticleSchema.nullable(),
  newsSearch: z.object({ articles: ArticlePageSchema, tag: TagSchema.nullable(), columnist: ColumnAuthorSchema.nullable() }),
  adGroups: AdGroupsSchema,
  homeAdSlots: z.array(HomeAdSlotSchema),
  siteInfo: SiteInfoSchema.nullable(),
  greyMode: GreyModeSchema,
  boutiquePage: pagedSchema(RawBoutiqueItemSchema),
  video: RawVideoSchema.nullable(),
  videoAlbum: VideoAlbumSchema.nullable(),
  shikeCategories: z.array(RawShikeCategorySchema),
  shikeCategoryVideos: z.intersection(pagedSchema(RawVideoSchema), z.object({ category: RawShikeCategorySchema })).nullable(),
  live: RawLiveSchema.nullable(),
  livePage: pagedSchema(RawLiveSchema),
  playbackPage: pagedSchema(RawLivePlaybackSchema),
  newspaperPage: pagedSchema(NewspaperIssueSchema),
  topicList: z.object({ list: z.array(TopicSchema), total: z.number() }),
  topicDetail: TopicDetailSchema.nullable(),
  specialReport: SpecialReportSchema.nullable(),
  specialReports: z.array(SpecialReportSchema),
  columnAuthors: z.object({ list: z.array(ColumnAuthorSchema), count: z.number() }),
  columnAuthorInfo: ColumnAuthorInfoSchema.nullable(),
};
