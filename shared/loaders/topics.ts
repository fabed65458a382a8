/**
 * Topics: /topic/{id} lists the special topics (专题) page by page; /topicDetail/{id} shows one topic with its
 * articles, or — for menu entries whose template 8 points at a category rather than a topic — the category's
 * articles presented as a topic.
 */
import { idParam } from '../route-params';
import { lastPage, pageFromQuery } from '../paging';
import type { ArticleSummary, Topic } from '../types/entities';
import { findCategory, siteTitle } from './helpers';
import type { Loader } from './types';

export const TOPIC_PAGE_SIZE = 12;
const CATEGORY_AS_TOPIC_SIZE = 30;

export interface TopicListData {
  title: string;
  topics: Topic[];
  page: number;
  lastPage: number;
}

export interface TopicDetailData {
  title: string;
  description: string;
  cover: string;
  articles: ArticleSummary[];
}

export const loadTopicList: Loader<TopicListData> = async ({ params, query, site, content }) => {
  const catid = idParam(params, 'id');
  const page = pageFromQuery(query.get('page'));
  if (catid === undefined || page === null) return { kind: 'not-found' };
  const [menu, result] = await Promise.all([content.menu(), content.topicPage(page, TOPIC_PAGE_SIZE)]);
  const last = lastPage(result.total, TOPIC_PAGE_SIZE);
  if (result.list.length === 0 || page > last) return { kind: 'not-found' };
  const title = findCategory(menu, catid)?.catname ?? '专题';
  return {
    kind: 'ok',
    data: { title, topics: result.list, page, lastPage: last },
    head: { title: siteTitle(title, site), description: `${title} - 专题报道`, keywords: `${title},专题,${site.seo_keywords}` },
  };
};

export const loadTopicDetail: Loader<TopicDetailData> = async ({ params, site, content }) => {
  const id = idParam(params, 'id');
  if (id === undefined) return { kind: 'not-found' };
  const found = await content.topic(id);
  if (found) {
    return {
      kind: 'ok',
      data: { title: found.topic.title, description: found.topic.description, cover: found.topic.thumb, articles: found.articles },
      head: { title: siteTitle(found.topic.title, site), description: found.topic.description, keywords: found.topic.title },
    };
  }
  const [menu, list] = await Promise.all([content.menu(), content.articleList(id, 1, CATEGORY_AS_TOPIC_SIZE)]);
  const category = findCategory(menu, id);
  if (!category || list.items.length === 0) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: { title: category.catname, description: '', cover: '', articles: list.items },
    head: {
      title: siteTitle(category.catname, site),
      description: `${category.catname}专题报道`,
      keywords: `${category.catname},${site.seo_keywords}`,
    },
  };
};
