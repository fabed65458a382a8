/**
 * Articles: lists, one article (its body sanitised here, before it is cached), headlines and the searches.
 * Each call says its cache key, policy family, tags, upstream request, schema and what 'not found' yields
 * (call.ts); content-service.ts runs them through the data cache.
 */
import type { ContentApi } from '../../../shared/content-api';
import type { Article, ArticlePage, ColumnAuthor, Tag } from '../../../shared/types/entities';
import type { RawArticleDetail, RawArticleList, RawHeadlineNews, RawNewsSearchInit, RawSearchResult } from '../wire';
import { RawArticleDetailSchema, RawArticleListSchema, RawHeadlineNewsSchema, RawNewsSearchInitSchema, RawSearchResultSchema } from '../wire';
import { STORED } from '../entity-schemas';
import * as normalise from '../normalise';
import { sanitiseArticleHtmlInSlices } from '../sanitise-html';
import { articleKeys, kept, type Call } from './call';

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
    // A name without one is no link: an author id the CMS sent for an empty name would link nothing a reader sees.
    columnistId: raw.author.trim() === '' ? null : (raw.columnist_id ?? null),
  };
}

export type ArticleApi = Pick<ContentApi, 'articleList' | 'article' | 'articleById' | 'headlineNews' | 'search' | 'newsSearch'>;

export function articleCalls(call: Call): ArticleApi {
  return {
    articleList: (catid, page, pageSize) =>
      call<RawArticleList, ArticlePage>({
        family: 'list',
        key: `list:${catid}:${page}:${pageSize}`,
        tags: [`cat:${catid}`],
        shows: (page) => articleKeys(page.items),
        without: (page, gone) => ({ ...page, items: page.items.filter(kept('article', gone)) }),
        request: { method: 'GET', path: `/list/${catid}/${page}.html?pagesize=${pageSize}`, call: 'list' },
        schema: RawArticleListSchema,
        stored: STORED.articlePage,
        normalise: (raw) => normalise.articlePage(raw, pageSize),
        empty: { items: [], total: 0, page, pageSize },
      }),
    article: (catid, id) =>
      call<RawArticleDetail, Article | null>({
        family: 'article',
        key: `show:${catid}:${id}`,
        tags: [`article:${id}`, `cat:${catid}`],
        request: { method: 'GET', path: `/show/${catid}-${id}.html`, call: 'show' },
        schema: RawArticleDetailSchema,
        stored: STORED.article,
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
        stored: STORED.article,
        normalise: articleOf,
        empty: null,
      }),
    headlineNews: (page, pageSize) =>
      call<RawHeadlineNews, ArticlePage>({
        family: 'list',
        key: `headline_news:${page}:${pageSize}`,
        tags: ['headline'],
        shows: (page) => articleKeys(page.items),
        without: (page, gone) => ({ ...page, items: page.items.filter(kept('article', gone)) }),
        request: { method: 'GET', path: `/api/rmt/get_headline_news?page=${page}&page_size=${pageSize}`, call: 'get_headline_news' },
        schema: RawHeadlineNewsSchema,
        stored: STORED.articlePage,
        normalise: (raw) => normalise.pagedArticles(raw, pageSize),
        empty: { items: [], total: 0, page, pageSize },
      }),
    search: (query, type, page, pageSize) =>
      call<RawSearchResult, ArticlePage>({
        family: 'search',
        key: `search:${type}:${page}:${pageSize}:${encodeURIComponent(query)}`,
        tags: ['search'],
        shows: (page) => articleKeys(page.items),
        without: (page, gone) => ({ ...page, items: page.items.filter(kept('article', gone)) }),
        request: {
          method: 'GET',
          path: `/api/rmt/search_all?${new URLSearchParams({ q: query, type: String(type), page: String(page), page_size: String(pageSize) })}`,
          call: 'search_all',
        },
        schema: RawSearchResultSchema,
        stored: STORED.articlePage,
        normalise: (raw) => normalise.pagedArticles(raw, pageSize),
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
        shows: (answer) => articleKeys(answer.articles.items),
        without: (answer, gone) => ({ ...answer, articles: { ...answer.articles, items: answer.articles.items.filter(kept('article', gone)) } }),
        request: { method: 'GET', path: `/api/rmt/news_search_init?${params}`, call: 'news_search_init' },
        schema: RawNewsSearchInitSchema,
        stored: STORED.newsSearch,
        normalise: (raw) => ({
          articles: normalise.pagedArticles(raw, pageSize),
          tag: raw.tag ? { id: raw.tag.id, name: raw.tag.name } : null,
          columnist: raw.columnist ? normalise.columnAuthor(raw.columnist) : null,
        }),
        empty: { articles: { items: [], total: 0, page, pageSize }, tag: null, columnist: null },
      });
    },
  };
}
