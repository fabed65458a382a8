/**
 * /topicDetail/{id}: one topic with its articles, or — for menu entries whose template 8 points at a category
 * rather than a topic — the category's articles presented as a topic.
 */
import { idParam } from '../../../shared/route-params';
import { findCategory, siteTitle, withMenuPath } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type TopicDetailData } from '../../../shared/pages/topic-detail/route';

const CATEGORY_AS_TOPIC_SIZE = 30;

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

export default definePageLoaders(route, {
  'topicDetail-id': loadTopicDetail,
  'menu-sub-topicDetail-id': withMenuPath('topicDetail', loadTopicDetail),
  'menu-topicDetail-id': withMenuPath('topicDetail', loadTopicDetail),
});
