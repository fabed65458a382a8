/**
 * ContentApi over the upstream client and the data cache. Each call has a cache key, a policy family and the
 * tags it depends on; what a page's calls did (cache states, tags, upstream time, degradation) is recorded per
 * request so the page can say how it was served and whether it may be cached.
 */
import type { ContentApi, HomeAdSlot, SiteInfo } from '../../shared/content-api';
import { ContentUnavailableError } from '../../shared/content-api';
import { DEFAULT_THEME_OFFICE_ID } from '../../shared/constants';
import type {
  AdGroups,
  Article,
  ArticlePage,
  Category,
  ColumnAuthor,
  GreyMode,
  Topic,
  TopicDetail,
  BoutiqueItem,
  ColumnAuthorInfo,
  Live,
  LivePlayback,
  NewspaperIssue,
  Paged,
  ShikeCategory,
  SpecialReport,
  Tag,
  Video,
  VideoAlbum,
} from '../../shared/types/entities';
import type { z } from 'zod';
import type {
  RawAdGroups,
  RawAdSlot,
  RawArticleDetail,
  RawArticleList,
  RawCategory,
  RawCategoryIndex,
  RawColumnAuthorList,
  RawGreyMode,
  RawSiteInfo,
  RawTopicDetail,
  RawTopicList,
  RawBoutiqueList,
  RawColumnAuthorInfo,
  RawHeadlineNews,
  RawLive,
  RawLivePlayback,
  RawNewsSearchInit,
  RawNewspaperSearch,
  RawPagedList,
  RawParentCategory,
  RawSearchResult,
  RawShikeCategory,
  RawShikeCategoryItems,
  RawSpecialReport,
  RawVideo,
  RawVideoAlbum,
} from '../../shared/types/upstream';
import {
  RawAdGroupsSchema,
  RawAdSlotsSchema,
  RawArticleDetailSchema,
  RawArticleListSchema,
  RawBoutiqueListSchema,
  RawCategoryIndexSchema,
  RawColumnAuthorInfoSchema,
  RawColumnAuthorListSchema,
  RawGreyModeSchema,
  RawHeadlineNewsSchema,
  RawLiveListSchema,
  RawLivePlaybackListSchema,
  RawLiveSchema,
  RawMenuListSchema,
  RawNewsSearchInitSchema,
  RawNewspaperSearchSchema,
  RawParentCategorySchema,
  RawSearchResultSchema,
  RawShikeCategoriesSchema,
  RawShikeCategoryItemsSchema,
  RawSiteInfoSchema,
  RawSpecialReportsSchema,
  RawTopicDetailSchema,
  RawTopicListSchema,
  RawVideoAlbumSchema,
  RawVideoSchema,
} from '../../shared/types/upstream';
import type { Cache, CacheState, Loaded } from '../cache/cache';
import type { KeySpace } from '../cache/keys';
import { ALL_SITES_SEGMENT, cacheKey } from '../cache/keys';
import type { DataFamily } from '../cache/policy';
import { DATA_POLICY, NOT_FOUND_POLICY, UPSTREAM_NOT_FOUND_CODE } from '../cache/policy';
import type { PolicySource } from '../cache/runtime-policy';
import type { UpstreamClient, UpstreamRequest } from './http-client';
import * as normalise from './normalise';
import { sanitiseArticleHtmlInSlices } from './sanitise-html';

/** When a news-tracking report last moved: its newest update, else when it started. */
function latestUpdate(report: SpecialReport): number {
  return report.timeline.at(-1)?.article.adddate ?? report.adddate;
}

/** An article as pages render it: body sanitised once, here, before it is cached or sent anywhere. */
async function articleOf(raw: RawArticleDetail): Promise<Article> {
  return {
    ...normalise.articleSummary(raw),
    catname: raw.catname,
    author: raw.author,
    keywords: raw.keywords,
    contentHtml: await sanitiseArticleHtmlInSlices(raw.content),
    views: raw.views,
    tags: raw.tags.map((tag) => ({ id: tag.id, name: tag.name })),
    editor: raw.editor?.trim() ?? '',
  };
}

/** What one page's content calls did. */
export class CallRecorder {
  readonly tags = new Set<string>();
  readonly states: CacheState[] = [];
  upstreamMs = 0;
  degraded = false;

  record(state: CacheState, tags: readonly string[]): void {
    this.states.push(state);
    for (const tag of tags) this.tags.add(tag);
  }

  /** Adds what another recorder saw (a page's loader calls recorded apart from its layout calls). */
  absorb(other: CallRecorder): void {
    for (const state of other.states) this.states.push(state);
    for (const tag of other.tags) this.tags.add(tag);
    this.upstreamMs += other.upstreamMs;
    this.degraded ||= other.degraded;
  }

  /** HIT only if every call was a hit; STALE if any was stale; otherwise MISS. */
  get summary(): CacheState {
    if (this.states.includes('MISS')) return 'MISS';
    if (this.states.includes('STALE')) return 'STALE';
    return 'HIT';
  }
}

interface CallSpec<Raw, T> {
  family: DataFamily;
  /** Key suffix after the kind and site segments, e.g. `list:3281:1:5`. */
  key: string;
  tags: string[];
  request: UpstreamRequest;
  /** The answer's data is checked against this where it enters; another shape is a failed call. */
  schema: z.ZodType<Raw, unknown>;
  /** May be async: long work (sanitising a body) yields to other readers. */
  normalise: (raw: Raw) => T | Promise<T>;
  /** What the CMS's 'not found' (or, for optional calls, a failure) yields. */
  empty: T;
  /** Required calls throw ContentUnavailableError on a failure instead of yielding `empty`, whoever asks. */
  required?: boolean;
  /**
   * What is around a page rather than its content (ads, grey mode, site SEO): a failure yields `empty` even for
   * a page's own loader, so a missing ad never turns an article into a 503.
   */
  decoration?: boolean;
}

/**
 * What a failed call (no answer and nothing held) does: 'throw' for a page's own data, so the page is a 503
 * rather than an empty or 'not found' page; 'empty' for the blocks around it (layout, sidebars), which render
 * empty. Either way the page is marked degraded and is not stored.
 */
export type OnCallFailure = 'throw' | 'empty';

export interface ContentServiceOptions {
  upstream: UpstreamClient;
  cache: Cache;
  keys: KeySpace;
  /** TTL/grace per call family; the run-time policy (operators can change it), or the defaults in code. */
  policy?: PolicySource;
  onUpstreamError?: (call: string, error: unknown) => void;
}

export class ContentService {
  constructor(private readonly options: ContentServiceOptions) {}

  /** A ContentApi whose calls are recorded into `recorder`. */
  forRequest(recorder: CallRecorder, onFailure: OnCallFailure = 'empty'): ContentApi {
    const call = <Raw, T>(spec: CallSpec<Raw, T>) => this.call(spec, recorder, onFailure);
    const topicPage = (page: number, pageSize: number) =>
      call<RawTopicList, { list: Topic[]; total: number }>({
        family: 'topics',
        key: `theme_list:${page}:${pageSize}`,
        tags: ['topics'],
        request: {
          method: 'GET',
          path: `/theme/list/${page}?officeId=${DEFAULT_THEME_OFFICE_ID}&pageSize=${pageSize}`,
          call: 'theme_list',
        },
        schema: RawTopicListSchema,
        normalise: (raw) => ({ list: raw.list.map(normalise.topic), total: raw.total }),
        empty: { list: [], total: 0 },
      });
    return {
      menu: () =>
        call<RawCategory[], Category[]>({
          family: 'menu',
          key: 'menu',
          tags: ['menu'],
          request: { method: 'GET', path: '/api/common/get_menu_list', call: 'menu' },
          schema: RawMenuListSchema,
          normalise: (raw) => raw.map(normalise.category),
          empty: [],
        }),
      categoryChildren: (catid) =>
        call<RawCategoryIndex, Category[]>({
          family: 'categoryIndex',
          key: `category_index:${catid}`,
          tags: [`cat:${catid}`],
          request: { method: 'POST', path: '/mobile/index/category_index', body: { catid }, call: 'category_index' },
          schema: RawCategoryIndexSchema,
          normalise: (raw) => (raw.children ?? []).map(normalise.category),
          empty: [],
        }),
      articleList: (catid, page, pageSize) =>
        call<RawArticleList, ArticlePage>({
          family: 'list',
          key: `list:${catid}:${page}:${pageSize}`,
          tags: [`cat:${catid}`],
          request: { method: 'GET', path: `/list/${catid}/${page}.html?pagesize=${pageSize}`, call: 'list' },
          schema: RawArticleListSchema,
          normalise: normalise.articlePage,
          empty: { items: [], total: 0, page, pageSize },
        }),
      article: (catid, id) =>
        call<RawArticleDetail, Article | null>({
          family: 'article',
          key: `show:${catid}:${id}`,
          tags: [`article:${id}`, `cat:${catid}`],
          request: { method: 'GET', path: `/show/${catid}-${id}.html`, call: 'show' },
          schema: RawArticleDetailSchema,
          normalise: articleOf,
          empty: null,
          required: true,
        }),
      articleById: (id) =>
        call<RawArticleDetail, Article | null>({
          family: 'article',
          key: `article_by_id:${id}`,
          tags: [`article:${id}`],
          request: { method: 'GET', path: `/api/article/detail?id=${id}`, call: 'article_detail' },
          schema: RawArticleDetailSchema,
          normalise: articleOf,
          empty: null,
        }),
      adGroups: (catid) =>
        call<RawAdGroups, AdGroups>({
          family: 'ads',
          key: `ad_top:${catid}`,
          tags: ['ads', `cat:${catid}`],
          request: { method: 'GET', path: `/api/ad/top?catid=${catid}`, call: 'ad_top' },
          schema: RawAdGroupsSchema,
          normalise: normalise.adGroups,
          empty: normalise.EMPTY_AD_GROUPS,
          decoration: true,
        }),
      homeAdSlots: (catid) =>
        call<RawAdSlot[], HomeAdSlot[]>({
          family: 'ads',
          key: `ad_slots:${catid}`,
          tags: ['ads', `cat:${catid}`],
          request: { method: 'GET', path: `/api/ad/list_by_column_id?catid=${catid}`, call: 'ad_list_by_column' },
          schema: RawAdSlotsSchema,
          normalise: (raw) => raw.map((slot) => ({ position: slot.position, ads: slot.list.map(normalise.advertisement) })),
          empty: [],
          decoration: true,
        }),
      topics: async (page, pageSize) => (await topicPage(page, pageSize)).list,
      topicPage,
      topic: (id) =>
        call<RawTopicDetail, TopicDetail | null>({
          family: 'topics',
          key: `theme:${id}`,
          tags: ['topics', `topic:${id}`],
          request: { method: 'GET', path: `/theme/get/${id}`, call: 'theme_get' },
          schema: RawTopicDetailSchema,
          normalise: (raw) => ({ topic: normalise.topic(raw), articles: raw.articles.map(normalise.articleSummary) }),
          empty: null,
        }),
      columnAuthors: (page, pageSize) =>
        call<RawColumnAuthorList, { list: ColumnAuthor[]; count: number }>({
          family: 'columns',
          key: `column_authors:${page}:${pageSize}`,
          tags: ['columns'],
          request: {
            method: 'GET',
            path: `/api/special_column_author/list?page=${page}&page_size=${pageSize}`,
            call: 'special_column_author_list',
          },
          schema: RawColumnAuthorListSchema,
          normalise: (raw) => ({ list: raw.list.map(normalise.columnAuthor), count: raw.count }),
          empty: { list: [], count: 0 },
        }),
      siteInfo: (siteId) =>
        call<RawSiteInfo, SiteInfo | null>({
          family: 'site',
          key: `site_info:${siteId}`,
          tags: [`site:${siteId}`],
          request: { method: 'GET', path: `/api/common/get_site_info?site_id=${siteId}`, call: 'site_info' },
          schema: RawSiteInfoSchema,
          normalise: (raw) => ({
            seo: { title: raw.seo.seo_title, keywords: raw.seo.seo_keywords, description: raw.seo.seo_description },
            friendlyLinks: raw.friendly_link_list.map((link) => ({ name: link.name, link: link.link })),
          }),
          empty: null,
          decoration: true,
        }),
      greyMode: () =>
        call<RawGreyMode, GreyMode>({
          family: 'greyMode',
          key: 'grey_mode',
          tags: ['grey'],
          request: { method: 'GET', path: '/api/common/grey_mode', call: 'grey_mode' },
          schema: RawGreyModeSchema,
          normalise: normalise.greyMode,
          empty: 'off',
          decoration: true,
        }),
      parentCategories: (catid) =>
        call<RawParentCategory, Category[]>({
          family: 'categoryIndex',
          key: `parent_category:${catid}`,
          tags: [`cat:${catid}`],
          request: { method: 'GET', path: `/api/rmt/get_parent_category?id=${catid}`, call: 'get_parent_category' },
          schema: RawParentCategorySchema,
          normalise: (raw) => raw.list.map(normalise.category),
          empty: [],
        }),
      search: (query, type, page, pageSize) =>
        call<RawSearchResult, ArticlePage>({
          family: 'search',
          key: `search:${type}:${page}:${pageSize}:${encodeURIComponent(query)}`,
          tags: ['search'],
          request: {
            method: 'GET',
            path: `/api/rmt/search_all?${new URLSearchParams({ q: query, type: String(type), page: String(page), page_size: String(pageSize) })}`,
            call: 'search_all',
          },
          schema: RawSearchResultSchema,
          normalise: normalise.pagedArticles,
          empty: { items: [], total: 0, page, pageSize },
        }),
      headlineNews: (page, pageSize) =>
        call<RawHeadlineNews, ArticlePage>({
          family: 'list',
          key: `headline_news:${page}:${pageSize}`,
          tags: ['headline'],
          request: { method: 'GET', path: `/api/rmt/get_headline_news?page=${page}&page_size=${pageSize}`, call: 'get_headline_news' },
          schema: RawHeadlineNewsSchema,
          normalise: normalise.pagedArticles,
          empty: { items: [], total: 0, page, pageSize },
        }),
      newsSearch: (filter, page, pageSize) => {
        const params = new URLSearchParams({ page: String(page), page_size: String(pageSize) });
        if (filter.tagId !== undefined) params.set('tag_id', String(filter.tagId));
        if (filter.columnistId !== undefined) params.set('columnist_id', String(filter.columnistId));
        return call<RawNewsSearchInit, { articles: ArticlePage; tag: Tag | null; columnist: ColumnAuthor | null }>({
          family: 'list',
          key: `news_search:${params.toString()}`,
          tags: [filter.tagId !== undefined ? `tag:${filter.tagId}` : `columnist:${filter.columnistId}`],
          request: { method: 'GET', path: `/api/rmt/news_search_init?${params}`, call: 'news_search_init' },
          schema: RawNewsSearchInitSchema,
          normalise: (raw) => ({
            articles: normalise.pagedArticles(raw),
            tag: raw.tag ? { id: raw.tag.id, name: raw.tag.name } : null,
            columnist: raw.columnist ? normalise.columnAuthor(raw.columnist) : null,
          }),
          empty: { articles: { items: [], total: 0, page, pageSize }, tag: null, columnist: null },
        });
      },
      columnAuthor: (id) =>
        call<RawColumnAuthorInfo, ColumnAuthorInfo | null>({
          family: 'columns',
          key: `column_author:${id}`,
          tags: ['columns', `columnist:${id}`],
          request: { method: 'GET', path: `/api/special_column_author/info?id=${id}`, call: 'special_column_author_info' },
          schema: RawColumnAuthorInfoSchema,
          normalise: normalise.columnAuthorInfo,
          empty: null,
        }),
      specialReport: (id) =>
        call<RawSpecialReport[], SpecialReport | null>({
          family: 'topics',
          key: `special:${id}`,
          tags: [`special:${id}`],
          request: { method: 'GET', path: `/api/special/list_by_catid?catid=0&id=${id}`, call: 'special_list_by_catid' },
          schema: RawSpecialReportsSchema,
          normalise: (raw) => {
            const report = raw.find((item) => item.id === id);
            return report ? normalise.specialReport(report) : null;
          },
          empty: null,
        }),
      boutique: (type, page, pageSize) =>
        call<RawBoutiqueList, Paged<BoutiqueItem>>({
          family: 'media',
          key: `boutique:${type}:${page}:${pageSize}`,
          tags: ['boutique'],
          request: { method: 'GET', path: `/api/boutique/list?type=${type}&page=${page}&page_size=${pageSize}`, call: 'boutique_list' },
          schema: RawBoutiqueListSchema,
          normalise: (raw) => normalise.paged(raw, (item) => item),
          empty: { list: [], total: 0, page, pageSize },
        }),
      video: (id) =>
        call<RawVideo, Video | null>({
          family: 'media',
          key: `video:${id}`,
          tags: [`video:${id}`],
          request: { method: 'GET', path: `/api/video/detail?id=${id}`, call: 'video_detail' },
          schema: RawVideoSchema,
          normalise: (raw) => raw,
          empty: null,
        }),
      videoAlbum: (id) =>
        call<RawVideoAlbum, VideoAlbum | null>({
          family: 'media',
          key: `video_album:${id}`,
          tags: [`album:${id}`],
          request: { method: 'GET', path: `/api/video_album/detail?id=${id}`, call: 'video_album_detail' },
          schema: RawVideoAlbumSchema,
          normalise: (raw) => raw,
          empty: null,
        }),
      shikeCategories: () =>
        call<RawShikeCategory[], ShikeCategory[]>({
          family: 'media',
          key: 'shike_categories',
          tags: ['shike'],
          request: { method: 'GET', path: '/api/video_album/shike_video_category', call: 'shike_video_category' },
          schema: RawShikeCategoriesSchema,
          normalise: (raw) => raw,
          empty: [],
        }),
      shikeVideos: (categoryId, page, pageSize) =>
        call<RawShikeCategoryItems, (Paged<Video> & { category: ShikeCategory }) | null>({
          family: 'media',
          key: `shike_items:${categoryId}:${page}:${pageSize}`,
          tags: ['shike', `shike:${categoryId}`],
          request: {
            method: 'GET',
            path: `/api/video_album/shike_video_category_item?id=${categoryId}&page=${page}&page_size=${pageSize}`,
            call: 'shike_video_category_item',
          },
          schema: RawShikeCategoryItemsSchema,
          normalise: (raw) => ({ ...normalise.paged(raw, (item) => item), category: raw.category }),
          empty: null,
        }),
      live: (id) =>
        call<RawLive, Live | null>({
          family: 'live',
          key: `live:${id}`,
          tags: [`live:${id}`],
          request: { method: 'GET', path: `/api/live/info?id=${id}`, call: 'live_info' },
          schema: RawLiveSchema,
          normalise: (raw) => raw,
          empty: null,
        }),
      lives: (status, page, pageSize) =>
        call<RawPagedList<RawLive>, Paged<Live>>({
          family: 'live',
          key: `live_list:${status}:${page}:${pageSize}`,
          tags: ['lives'],
          request: { method: 'GET', path: `/api/live/list?show_type=${status}&page=${page}&page_size=${pageSize}`, call: 'live_list' },
          schema: RawLiveListSchema,
          normalise: (raw) => normalise.paged(raw, (item) => item),
          empty: { list: [], total: 0, page, pageSize },
        }),
      specialReports: () =>
        call<RawSpecialReport[], SpecialReport[]>({
          family: 'topics',
          key: 'specials:all',
          tags: ['specials'],
          request: { method: 'GET', path: '/api/special/list_by_catid?catid=0', call: 'special_list_by_catid' },
          schema: RawSpecialReportsSchema,
          normalise: (raw) => raw.map(normalise.specialReport).sort((left, right) => latestUpdate(right) - latestUpdate(left) || right.id - left.id),
          empty: [],
        }),
      livePlaybacks: (liveId, page, pageSize) =>
        call<RawPagedList<RawLivePlayback>, Paged<LivePlayback>>({
          family: 'live',
          key: `live_playback:${liveId}:${page}:${pageSize}`,
          tags: [`live:${liveId}`],
          request: { method: 'GET', path: `/api/live/playback_list?id=${liveId}&page=${page}&page_size=${pageSize}`, call: 'live_playback_list' },
          schema: RawLivePlaybackListSchema,
          normalise: (raw) => normalise.paged(raw, (item) => item),
          empty: { list: [], total: 0, page, pageSize },
        }),
      newspapers: (catid, query, page, pageSize) =>
        call<RawNewspaperSearch, Paged<NewspaperIssue>>({
          family: 'newspaper',
          key: `newspapers:${catid}:${page}:${pageSize}:${encodeURIComponent(query)}`,
          tags: ['newspaper', `cat:${catid}`],
          request: {
            method: 'GET',
            path: `/api/rmt/read_newspapers_search?${new URLSearchParams({ q: query, catid: String(catid), page: String(page), page_size: String(pageSize) })}`,
            call: 'read_newspapers_search',
          },
          schema: RawNewspaperSearchSchema,
          normalise: (raw) => normalise.paged(raw, (item) => item),
          empty: { list: [], total: 0, page, pageSize },
        }),
    };
  }

  private async call<Raw, T>(spec: CallSpec<Raw, T>, recorder: CallRecorder, onFailure: OnCallFailure): Promise<T> {
    const key = cacheKey(this.options.keys, 'data', ALL_SITES_SEGMENT, spec.key);
    try {
      const policy = this.options.policy?.data(spec.family) ?? DATA_POLICY[spec.family];
      const served = await this.options.cache.getOrLoad<T>(key, policy, () => this.load(spec, recorder));
      recorder.record(served.state, served.tags);
      // Served past grace because the upstream failed: right for this reader, but nothing built on it is cacheable.
      if (served.staleIfError) recorder.degraded = true;
      return served.value;
    } catch (error) {
      this.options.onUpstreamError?.(spec.request.call, error);
      recorder.degraded = true;
      const fails = spec.required === true || (onFailure === 'throw' && spec.decoration !== true);
      if (fails) throw new ContentUnavailableError(spec.request.call);
      return spec.empty;
    }
  }

  /**
   * Loads from upstream. Only the CMS's 'not found' is an answer without data; everything else that is not a
   * well-formed success (no answer, an HTTP error, an answer too large or of the wrong shape, any other non-zero
   * code such as 50001 系统繁忙) is a failure and throws, so a held entry is served past grace (stale-if-error)
   * and a required call with nothing held makes the page a 503, never a 404 or an empty page.
   */
  private async load<Raw, T>(spec: CallSpec<Raw, T>, recorder: CallRecorder): Promise<Loaded<T>> {
    const result = await this.options.upstream.request(spec.request, spec.schema);
    // The call family is a tag too, so an operator can purge e.g. every list answer and the pages built on them.
    const tags = [...spec.tags, `data:${spec.family}`];
    recorder.upstreamMs += result.durationMs;
    if (result.outcome === 'ok') return { value: await spec.normalise(result.envelope.data), cacheable: true, tags };
    if (result.outcome === 'unavailable') throw new UpstreamUnavailable(spec.request.call, result.reason ?? result.envelope.msg);
    const { code, msg } = result.envelope;
    if (code !== UPSTREAM_NOT_FOUND_CODE) throw new UpstreamUnavailable(spec.request.call, `code ${code}: ${msg}`);
    // Negative caching: kept for NOT_FOUND_POLICY's short ttl only (an editor may be about to publish it).
    return { value: spec.empty, cacheable: true, tags: [...tags, 'not-found'], policy: NOT_FOUND_POLICY };
  }
}

export class UpstreamUnavailable extends Error {
  constructor(
    readonly call: string,
    msg: string,
  ) {
    super(`upstream ${call}: ${msg}`);
    this.name = 'UpstreamUnavailable';
  }
}
