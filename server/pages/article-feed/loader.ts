/**
 * Pages that are a titled, paged list of articles: headline news, a tag's articles, a column author's articles.
 * One data shape, one page component.
 */
import { idParam } from '../../../shared/route-params';
import { lastPage, pageFromQuery } from '../paging';

import { siteTitle } from '../helpers';
import type { Loader, LoaderContext } from '../types';
import { definePageLoaders } from '../define';
import route, { type ArticleFeedData } from '../../../shared/pages/article-feed/route';

export const FEED_PAGE_SIZE = 20;

function page(ctx: LoaderContext): number | null {
  return pageFromQuery(ctx.query.get('page'));
}

function ok(ctx: LoaderContext, data: ArticleFeedData) {
  if (data.articles.page > data.lastPage) return { kind: 'not-found' as const };
  return {
    kind: 'ok' as const,
    data,
    head: { title: siteTitle(data.title, ctx.site), description: data.intro || ctx.site.seo_description, keywords: `${data.title},${ctx.site.seo_keywords}` },
  };
}

export const loadHeadlineNews: Loader<ArticleFeedData> = async (ctx) => {
  const number = page(ctx);
  if (number === null) return { kind: 'not-found' };
  const articles = await ctx.content.headlineNews(number, FEED_PAGE_SIZE);
  return ok(ctx, { title: '头条新闻', intro: '', avatar: '', meta: '', articles, lastPage: lastPage(articles.total, FEED_PAGE_SIZE), subscription: null });
};

export const loadTagDetail: Loader<ArticleFeedData> = async (ctx) => {
  const id = idParam(ctx.params, 'id');
  const number = page(ctx);
  if (id === undefined || number === null) return { kind: 'not-found' };
  const result = await ctx.content.newsSearch({ tagId: id }, number, FEED_PAGE_SIZE);
  if (!result.tag) return { kind: 'not-found' };
  const { articles } = result;
  return ok(ctx, {
    title: `#${result.tag.name}`,
    intro: '',
    avatar: '',
    meta: `${articles.total} 篇文章`,
    articles,
    lastPage: lastPage(articles.total, FEED_PAGE_SIZE),
    subscription: { kind: 'tag', id: result.tag.id },
  });
};

export const loadColumnist: Loader<ArticleFeedData> = async (ctx) => {
  const id = idParam(ctx.params, 'id');
  const number = page(ctx);
  if (id === undefined || number === null) return { kind: 'not-found' };
  const [author, result] = await Promise.all([ctx.content.columnAuthor(id), ctx.content.newsSearch({ columnistId: id }, number, FEED_PAGE_SIZE)]);
  if (!author) return { kind: 'not-found' };
  const { articles } = result;
  return ok(ctx, {
    title: author.name,
    intro: author.description,
    avatar: author.avatar,
    meta: `${author.title} · ${author.articleCount} 篇文章`,
    articles,
    lastPage: lastPage(articles.total, FEED_PAGE_SIZE),
    subscription: { kind: 'author', id: author.id },
  });
};

export default definePageLoaders(route, { headlineNews: loadHeadlineNews, 'specialColumnDetail-id': loadColumnist, tagDetail: loadTagDetail });
