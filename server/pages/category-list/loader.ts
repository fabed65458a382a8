/** Category lists (/V1/{catid}, /V2/{catid} and their /{menu}/{sub}/… forms): a page of the category's articles. */
import { idParam } from '../../../shared/route-params';
import { lastPage, pageFromQuery } from '../paging';
import { siteCategory, siteTitle, withMenuPath } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type CategoryListData } from '../../../shared/pages/category-list/route';

export const CATEGORY_PAGE_SIZE = 20;

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

export default definePageLoaders(route, {
  'V1-id': loadCategoryList,
  'V2-id': loadCategoryList,
  'menu-sub-V1-id': withMenuPath('V1', loadCategoryList),
  'menu-V1-id': withMenuPath('V1', loadCategoryList),
  'menu-sub-V2-id': withMenuPath('V2', loadCategoryList),
  'menu-V2-id': withMenuPath('V2', loadCategoryList),
});
