/** Category lists (/V1/{catid}, /V2/{catid} and their /{menu}/{sub}/… forms): a page of the category's articles. */
import type { ArticlePage, Category } from '../../types/entities';
import { definePage, PAGED, underMenu, withId } from '../define';

export interface CategoryListData {
  catid: number;
  catname: string;
  /** Sub-categories, for the tabs above the list. */
  children: Array<Pick<Category, 'catid' | 'catname'>>;
  list: ArticlePage;
  lastPage: number;
}

const LIST = { query: PAGED };

export default definePage<CategoryListData>()('categoryList', [withId('V1', LIST), withId('V2', LIST), ...underMenu('V1', LIST), ...underMenu('V2', LIST)]);
