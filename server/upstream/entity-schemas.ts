/**
 * The shapes of shared/types/entities.ts as zod schemas: what a cached content answer must be to be read
 * (server/cache/cache.ts checkedJsonCodec). An answer is checked where it enters (./wire.ts) and stored normalised; what
 * Redis hands back is checked again against these, once per decode, so an entry of another shape is a miss, never
 * a page that fails on it. Redis may hold anything, so its texts and lists are cut again by the bounds they had
 * where they entered (each bound here at least the entry's, so what the portal stored reads back unchanged): an
 * entry inflated in Redis sizes no page. Each schema is typed by its entity, so the two cannot drift apart.
 */
import { z } from 'zod';
import type { HomeAdSlot, SiteInfo } from '../../shared/content-api';
import type {
  AdGroups,
  Advertisement,
  Article,
  ArticlePage,
  ArticleSummary,
  BoutiqueItem,
  Category,
  ColumnAuthor,
  ColumnAuthorInfo,
  GreyMode,
  Live,
  LivePlayback,
  NewspaperIssue,
  Paged,
  ShikeCategory,
  SpecialReport,
  Tag,
  TemplateCode,
  Topic,
  TopicDetail,
  Video,
  VideoAlbum,
} from '../../shared/types/entities';
import {
  AD_CAROUSEL_MAX,
  AdTypeSchema,
  ALBUM_VIDEOS_MAX,
  CATEGORY_CHILDREN_MAX,
  CMS_NAME_MAX,
  CMS_SUMMARY_MAX,
  cmsIssueDate,
  cmsList,
  cmsText,
  RawBoutiqueItemSchema,
  RawLivePlaybackSchema,
  RawLiveSchema,
  RawNewspaperIssueSchema,
  RawShikeCategorySchema,
  SHIKE_CATEGORIES_MAX,
  RawVideoSchema,
  unixSeconds,
} from './wire';

// The wire-shaped entities (Video, Live, …) are stored as they entered: their wire schemas read them again
// (a date already read reads the same; cut lists stay cut). Typed by the entity, so wire and entity cannot drift.
export const BoutiqueItemSchema: z.ZodType<BoutiqueItem, unknown> = RawBoutiqueItemSchema;
export const LivePlaybackSchema: z.ZodType<LivePlayback, unknown> = RawLivePlaybackSchema;
export const LiveSchema: z.ZodType<Live, unknown> = RawLiveSchema;
export const ShikeCategorySchema: z.ZodType<ShikeCategory, unknown> = RawShikeCategorySchema;
export const VideoSchema: z.ZodType<Video, unknown> = RawVideoSchema;

/** An issue as stored: its date one cmsIssueDate accepts as it is. */
export const NewspaperIssueSchema: z.ZodType<NewspaperIssue, unknown> = RawNewspaperIssueSchema.extend({
  issue_date: z.string().refine((value) => cmsIssueDate(value) === value, 'not a usable issue date'),
});

/** What every article shape has: a summary is these, the whole article these and more. */
const articleSummaryFields = {
  id: z.number(),
  catid: z.number(),
  title: cmsText(CMS_NAME_MAX),
  fullTitle: cmsText(CMS_NAME_MAX),
  description: cmsText(CMS_SUMMARY_MAX),
  thumb: cmsText(),
  adddate: unixSeconds,
  source: cmsText(CMS_NAME_MAX),
};

export const ArticleSummarySchema: z.ZodType<ArticleSummary, unknown> = z.object(articleSummaryFields);

export const ArticlePageSchema: z.ZodType<ArticlePage, unknown> = z.object({
  items: cmsList(ArticleSummarySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const TagSchema: z.ZodType<Tag, unknown> = z.object({ id: z.number(), name: cmsText(CMS_NAME_MAX) });

export const ArticleSchema: z.ZodType<Article, unknown> = z.object({
  ...articleSummaryFields,
  catname: cmsText(CMS_NAME_MAX),
  author: cmsText(CMS_NAME_MAX),
  keywords: cmsText(CMS_NAME_MAX),
  contentHtml: z.string(),
  views: z.number(),
  tags: cmsList(TagSchema),
  editor: cmsText(CMS_NAME_MAX),
  // Entries stored before the field existed read as having no columnist, not as broken.
  columnistId: z.number().nullable().default(null),
});

const TemplateCodeSchema: z.ZodType<TemplateCode, unknown> = z.union([1, 2, 3, 4, 5, 6, 7, 8].map((code) => z.literal(code as TemplateCode)));

export const CategorySchema: z.ZodType<Category, unknown> = z.lazy(() =>
  z.object({
    catid: z.number(),
    catname: cmsText(CMS_NAME_MAX),
    parentid: z.number(),
    categoryDirectory: cmsText(),
    template: TemplateCodeSchema.nullable(),
    templateField: z.boolean(),
    children: cmsList(CategorySchema, CATEGORY_CHILDREN_MAX),
  }),
);

export const AdvertisementSchema: z.ZodType<Advertisement, unknown> = z.object({
  id: z.number(),
  type: AdTypeSchema,
  title: cmsText(CMS_NAME_MAX),
  image: cmsText(),
  video: cmsText(),
  href: cmsText(),
});

export const AdGroupsSchema: z.ZodType<AdGroups, unknown> = z.object({
  detailTop: cmsList(AdvertisementSchema, AD_CAROUSEL_MAX),
  hotNewsTop: cmsList(AdvertisementSchema, AD_CAROUSEL_MAX),
  hotNewsBot: cmsList(AdvertisementSchema, AD_CAROUSEL_MAX),
  hotTopicBot: cmsList(AdvertisementSchema, AD_CAROUSEL_MAX),
  specialColBot: cmsList(AdvertisementSchema, AD_CAROUSEL_MAX),
});

export const HomeAdSlotSchema: z.ZodType<HomeAdSlot, unknown> = z.object({ position: z.number(), ads: cmsList(AdvertisementSchema, AD_CAROUSEL_MAX) });

export const SiteInfoSchema: z.ZodType<SiteInfo, unknown> = z.object({
  seo: z.object({ title: cmsText(CMS_NAME_MAX), keywords: cmsText(CMS_NAME_MAX), description: cmsText(CMS_SUMMARY_MAX) }),
  friendlyLinks: cmsList(z.object({ name: cmsText(CMS_NAME_MAX), link: cmsText() })),
});

export const GreyModeSchema: z.ZodType<GreyMode, unknown> = z.enum(['off', 'layout', 'home']);

export const TopicSchema: z.ZodType<Topic, unknown> = z.object({
  id: z.number(),
  title: cmsText(CMS_NAME_MAX),
  description: cmsText(CMS_SUMMARY_MAX),
  thumb: cmsText(),
  jump: z.object({ switch_value_android: cmsText() }),
});

export const TopicDetailSchema: z.ZodType<TopicDetail, unknown> = z.object({ topic: TopicSchema, articles: cmsList(ArticleSummarySchema) });

export const ColumnAuthorSchema: z.ZodType<ColumnAuthor, unknown> = z.object({
  id: z.number(),
  name: cmsText(CMS_NAME_MAX),
  avatar: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  subscribed: z.boolean(),
});

export const ColumnAuthorInfoSchema: z.ZodType<ColumnAuthorInfo, unknown> = z.object({
  id: z.number(),
  name: cmsText(CMS_NAME_MAX),
  avatar: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  subscribed: z.boolean(),
  title: cmsText(CMS_NAME_MAX),
  articleCount: z.number(),
});

export const VideoAlbumSchema: z.ZodType<VideoAlbum, unknown> = z.object({
  id: z.number(),
  title: cmsText(CMS_NAME_MAX),
  cover: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  adddate: unixSeconds,
  videos: cmsList(VideoSchema, ALBUM_VIDEOS_MAX),
});

export const SpecialReportSchema: z.ZodType<SpecialReport, unknown> = z.object({
  id: z.number(),
  catid: z.number(),
  title: cmsText(CMS_NAME_MAX),
  cover: cmsText(),
  description: cmsText(CMS_SUMMARY_MAX),
  adddate: unixSeconds,
  ongoing: z.boolean(),
  timeline: cmsList(z.object({ stage: cmsText(CMS_NAME_MAX), article: ArticleSummarySchema })),
});

/** A page of `item`s as pages read it. */
export function pagedSchema<T>(item: z.ZodType<T, unknown>): z.ZodType<Paged<T>, unknown> {
  return z.object({ list: cmsList(item), total: z.number(), page: z.number(), pageSize: z.number() });
}

/** What each content call stores (server/upstream/content-calls/): its normalised value, null where 'not found' is one. */
export const STORED = {
  categories: cmsList(CategorySchema),
  articlePage: ArticlePageSchema,
  article: ArticleSchema.nullable(),
  newsSearch: z.object({ articles: ArticlePageSchema, tag: TagSchema.nullable(), columnist: ColumnAuthorSchema.nullable() }),
  adGroups: AdGroupsSchema,
  homeAdSlots: cmsList(HomeAdSlotSchema),
  siteInfo: SiteInfoSchema.nullable(),
  greyMode: GreyModeSchema,
  boutiquePage: pagedSchema(BoutiqueItemSchema),
  video: VideoSchema.nullable(),
  videoAlbum: VideoAlbumSchema.nullable(),
  shikeCategories: cmsList(ShikeCategorySchema, SHIKE_CATEGORIES_MAX),
  shikeCategoryVideos: z.intersection(pagedSchema(VideoSchema), z.object({ category: ShikeCategorySchema })).nullable(),
  live: LiveSchema.nullable(),
  livePage: pagedSchema(LiveSchema),
  playbackPage: pagedSchema(LivePlaybackSchema),
  newspaperPage: pagedSchema(NewspaperIssueSchema),
  topicList: z.object({ list: cmsList(TopicSchema), total: z.number() }),
  topicDetail: TopicDetailSchema.nullable(),
  specialReport: SpecialReportSchema.nullable(),
  specialReports: cmsList(SpecialReportSchema),
  columnAuthors: z.object({ list: cmsList(ColumnAuthorSchema), count: z.number() }),
  columnAuthorInfo: ColumnAuthorInfoSchema.nullable(),
};
