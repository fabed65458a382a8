/**
 * Reading mode (/detailReading/{catid}/{id}): the article, and its neighbours in the category's list of 10
 * (page 1, size 10; docs/product.md §2). Previous only when the article is not first, next only when it is not last; an
 * article outside that list has neither.
 */
import { READING_LIST_SIZE } from '../../../shared/constants';
import { idParam } from '../../../shared/route-params';
import type { ArticleSummary } from '../../../shared/types/entities';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type ReadingData, type ReadingNeighbour } from '../../../shared/pages/reading/route';

function neighbour(item: ArticleSummary | undefined): ReadingNeighbour | null {
  return item ? { catid: item.catid, id: item.id, title: item.title, adddate: item.adddate } : null;
}

/** The items before and after `id` in `list`; null at the ends or when `id` is not listed. */
export function neighboursOf(list: readonly ArticleSummary[], id: number): { previous: ReadingNeighbour | null; next: ReadingNeighbour | null } {
  const index = list.findIndex((item) => item.id === id);
  if (index < 0) return { previous: null, next: null };
  return { previous: neighbour(list[index - 1]), next: neighbour(list[index + 1]) };
}

export const loadReading: Loader<ReadingData> = async ({ params, site, content }) => {
  const catid = idParam(params, 'catid');
  const id = idParam(params, 'id');
  if (catid === undefined || id === undefined) return { kind: 'not-found' };
  const [article, list] = await Promise.all([content.article(catid, id), content.articleList(catid, 1, READING_LIST_SIZE)]);
  if (!article) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: { article, ...neighboursOf(list.items, id) },
    head: {
      title: siteTitle(article.fullTitle, site),
      description: article.description,
      keywords: article.keywords || site.seo_keywords,
      feedCatid: article.catid,
    },
  };
};

export default definePageLoaders(route, { detailReading: loadReading });
