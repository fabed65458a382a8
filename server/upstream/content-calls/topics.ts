/**
 * Topics, news-tracking reports and special columns.
 * Each call says its cache key, policy family, tags, upstream request, schema and what 'not found' yields
 * (call.ts); content-service.ts runs them through the data cache.
 */
import type { ContentApi } from '../../../shared/content-api';
import { DEFAULT_THEME_OFFICE_ID } from '../../../shared/constants';
import type { ColumnAuthor, Topic, TopicDetail, ColumnAuthorInfo, SpecialReport } from '../../../shared/types/entities';
import type { RawColumnAuthorInfo, RawColumnAuthorList, RawSpecialReport, RawTopicDetail, RawTopicList } from '../wire';
import { RawColumnAuthorInfoSchema, RawColumnAuthorListSchema, RawSpecialReportsSchema, RawTopicDetailSchema, RawTopicListSchema } from '../wire';
import { STORED } from '../entity-schemas';
import * as normalise from '../normalise';
import { articleKeys, itemKeys, kept, type Call } from './call';

/** When a news-tracking report last moved: its newest update, else when it started; 0 (sorted last) when the CMS sent neither usably. */
function latestUpdate(report: SpecialReport): number {
  return report.timeline.at(-1)?.article.adddate ?? report.adddate ?? 0;
}

export type TopicApi = Pick<ContentApi, 'topics' | 'topicPage' | 'topic' | 'specialReport' | 'specialReports' | 'columnAuthors' | 'columnAuthor'>;

export function topicCalls(call: Call): TopicApi {
  const topicPage = (page: number, pageSize: number) =>
    call<RawTopicList, { list: Topic[]; total: number }>({
      family: 'topics',
      key: `theme_list:${page}:${pageSize}`,
      tags: ['topics'],
      shows: (page) => itemKeys('topic', page.list),
      without: (page, gone) => ({ ...page, list: page.list.filter(kept('topic', gone)) }),
      request: {
        method: 'GET',
        path: `/theme/list/${page}?officeId=${DEFAULT_THEME_OFFICE_ID}&pageSize=${pageSize}`,
        call: 'theme_list',
      },
      schema: RawTopicListSchema,
      stored: STORED.topicList,
      normalise: (raw) => ({ list: normalise.upTo(raw.list, pageSize).map(normalise.topic), total: raw.total }),
      empty: { list: [], total: 0 },
    });
  return {
    topics: async (page, pageSize) => (await topicPage(page, pageSize)).list,
    topicPage,
    topic: (id) =>
      call<RawTopicDetail, TopicDetail | null>({
        family: 'topics',
        key: `theme:${id}`,
        tags: ['topics', `topic:${id}`],
        shows: (detail) => (detail ? articleKeys(detail.articles) : []),
        without: (detail, gone) => (detail ? { ...detail, articles: detail.articles.filter(kept('article', gone)) } : detail),
        request: { method: 'GET', path: `/theme/get/${id}`, call: 'theme_get' },
        schema: RawTopicDetailSchema,
        stored: STORED.topicDetail,
        normalise: (raw) => ({ topic: normalise.topic(raw), articles: raw.articles.map(normalise.articleSummary) }),
        empty: null,
      }),
    specialReport: (id) =>
      call<RawSpecialReport[], SpecialReport | null>({
        family: 'topics',
        key: `special:${id}`,
        tags: [`special:${id}`],
        shows: (report) => (report ? articleKeys(report.timeline.map((stage) => stage.article)) : []),
        without: (report, gone) => (report ? withoutStages(report, gone) : report),
        request: { method: 'GET', path: `/api/special/list_by_catid?catid=0&id=${id}`, call: 'special_list_by_catid' },
        schema: RawSpecialReportsSchema,
        stored: STORED.specialReport,
        normalise: (raw) => {
          const report = raw.find((item) => item.id === id);
          return report ? normalise.specialReport(report) : null;
        },
        empty: null,
      }),
    specialReports: () =>
      call<RawSpecialReport[], SpecialReport[]>({
        family: 'topics',
        key: 'specials:all',
        tags: ['specials'],
        shows: (reports) => reports.flatMap((report) => articleKeys(report.timeline.map((stage) => stage.article))),
        without: (reports, gone) => reports.map((report) => withoutStages(report, gone)),
        request: { method: 'GET', path: '/api/special/list_by_catid?catid=0', call: 'special_list_by_catid' },
        schema: RawSpecialReportsSchema,
        stored: STORED.specialReports,
        normalise: (raw) => raw.map(normalise.specialReport).sort((left, right) => latestUpdate(right) - latestUpdate(left) || right.id - left.id),
        empty: [],
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
        stored: STORED.columnAuthors,
        normalise: (raw) => ({ list: normalise.upTo(raw.list, pageSize).map(normalise.columnAuthor), count: raw.count }),
        empty: { list: [], count: 0 },
      }),
    columnAuthor: (id) =>
      call<RawColumnAuthorInfo, ColumnAuthorInfo | null>({
        family: 'columns',
        key: `column_author:${id}`,
        tags: ['columns', `columnist:${id}`],
        request: { method: 'GET', path: `/api/special_column_author/info?id=${id}`, call: 'special_column_author_info' },
        schema: RawColumnAuthorInfoSchema,
        stored: STORED.columnAuthorInfo,
        normalise: normalise.columnAuthorInfo,
        empty: null,
      }),
  };
}

/** A special report without the stages whose article a hard purge withdrew. */
function withoutStages(report: SpecialReport, gone: ReadonlySet<string>): SpecialReport {
  const keep = kept('article', gone);
  return { ...report, timeline: report.timeline.filter((stage) => keep(stage.article)) };
}
