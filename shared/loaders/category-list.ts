/** Category lists (/V1/{catid}, /V2/{catid} and their /{menu}/{sub}/… forms): a page of the category's articles. */
import { idParam } from '../route-params';
import { lastPage, pageFromQuery } from '../paging';
import type { ArticlePage, Category } from '../types/entities';
import { siteCategory, siteTitle } from './helpers';
import type { Loader } from './types';

export const CATEGORY_PAGE_SIZE = 20;

export interface CategoryListData {
  catid: number;
  catname: string;
  /** Sub-categories, for the tabs above the list. */
  children: Array<Pick<Category, 'catid' | 'catname'>>;
  list: ArticlePage;
  lastPage: number;
}

export const loadCategoryList: Loader<CategoryListData> = async ({ params, query, site, content }) => {
  const catid = idParam(params, 'id');
  const page = pageFromQuery(query.get('page'));
  if (catid === undefined || page === null) return { kind: 'not-found' };
  const [category, list] = await Promise.all([siteCategory(content, site, catid), content.articleList(catid, page, CATEGORY_PAGE_SIZE)]);
  const last = lastPage(list.total, CATEGORY_PAGE_SIZE);
  if (list.total === 0 && !category) return { kind: 'not-found' };
  if (page > last) return { kind: 'not-found' };
  const catname = category?.catname ?? '新闻列表';
  return {
    kind: 'ok',
    data: {
      catid,
      catname,
      children: (category?.children ?? []).map((child) => ({ catid: child.catid, catname: child.catname })),
      list,
      lastPage: last,
    },
    head: {
      title: siteTitle(page > 1 ? `${catname}（第${page}页）` : catname, site),
      description: `${catname} - ${site.seo_description}`,
      keywords: `${catname},${site.seo_keywords}`,
      feedCatid: catid,
    },
  };
};
