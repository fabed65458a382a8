/** /topic/{id}: the special topics (专题), page by page, titled by the menu entry {id}. */
import { idParam } from '../../../shared/route-params';
import { lastPage, pageFromQuery } from '../paging';
import { findCategory, siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type TopicListData } from '../../../shared/pages/topic-list/route';

export const TOPIC_PAGE_SIZE = 12;

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

export default definePageLoaders(route, { 'topic-id': loadTopicList });
