/** /specialColumn: the column authors (专栏作者), a page at a time. */
import { lastPage, pageFromQuery } from '../paging';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type SpecialColumnData } from '../../../shared/pages/special-column/route';

export const COLUMN_AUTHORS_PAGE_SIZE = 12;

export const loadSpecialColumn: Loader<SpecialColumnData> = async ({ query, site, content }) => {
  const page = pageFromQuery(query.get('page'));
  if (page === null) return { kind: 'not-found' };
  const result = await content.columnAuthors(page, COLUMN_AUTHORS_PAGE_SIZE);
  const last = lastPage(result.count, COLUMN_AUTHORS_PAGE_SIZE);
  if (page > last) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: { authors: result.list, page, lastPage: last },
    head: { title: siteTitle('专栏', site), description: `${site.seo_title}专栏作者`, keywords: `专栏,评论,${site.seo_keywords}` },
  };
};

export default definePageLoaders(route, { specialColumn: loadSpecialColumn });
