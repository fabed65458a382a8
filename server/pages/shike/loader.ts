/** /shike/{id}: a 视刻 category's short videos, page by page, with the other categories as tabs. */
import { idParam } from '../../../shared/route-params';
import { lastPage, pageFromQuery } from '../paging';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { shikeTitle, type ShikeData } from '../../../shared/pages/shike/route';

export const SHIKE_PAGE_SIZE = 12;

export const loadShike: Loader<ShikeData> = async ({ params, query, site, content }) => {
  const id = idParam(params, 'id');
  const page = pageFromQuery(query.get('page'));
  if (id === undefined || page === null) return { kind: 'not-found' };
  const [categories, result] = await Promise.all([content.shikeCategories(), content.shikeVideos(id, page, SHIKE_PAGE_SIZE)]);
  if (!result) return { kind: 'not-found' };
  const last = lastPage(result.total, SHIKE_PAGE_SIZE);
  if (page > last) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: { category: result.category, categories, videos: result.list, page, lastPage: last },
    head: {
      title: siteTitle(shikeTitle(result.category.name), site),
      description: result.category.description,
      keywords: `视刻,短视频,${result.category.name}`,
    },
  };
};

export default definePageLoaders(route, { 'shike-id': loadShike });
