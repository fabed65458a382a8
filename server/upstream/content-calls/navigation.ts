/**
 * The site's category tree: the menu, a category's children and its parents.
 * Each call says its cache key, policy family, tags, upstream request, schema and what 'not found' yields
 * (call.ts); content-service.ts runs them through the data cache.
 */
import type { ContentApi } from '../../../shared/content-api';
import type { Category } from '../../../shared/types/entities';
import type { RawCategory, RawCategoryIndex, RawParentCategory } from '../wire';
import { RawCategoryIndexSchema, RawMenuListSchema, RawParentCategorySchema } from '../wire';
import { STORED } from '../entity-schemas';
import * as normalise from '../normalise';
import type { Call } from './call';

export type NavigationApi = Pick<ContentApi, 'menu' | 'categoryChildren' | 'parentCategories'>;

export function navigationCalls(call: Call): NavigationApi {
  return {
    menu: () =>
      call<RawCategory[], Category[]>({
        family: 'menu',
        key: 'menu',
        tags: ['menu'],
        request: { method: 'GET', path: '/api/common/get_menu_list', call: 'menu' },
        schema: RawMenuListSchema,
        stored: STORED.categories,
        normalise: (raw) => raw.map(normalise.category),
        empty: [],
      }),
    categoryChildren: (catid) =>
      call<RawCategoryIndex, Category[]>({
        family: 'categoryIndex',
        key: `category_index:${catid}`,
        tags: [`cat:${catid}`],
        request: { method: 'POST', path: '/mobile/index/category_index', body: { catid }, call: 'category_index' },
        schema: RawCategoryIndexSchema,
        stored: STORED.categories,
        normalise: (raw) => (raw.children ?? []).map(normalise.category),
        empty: [],
      }),
    parentCategories: (catid) =>
      call<RawParentCategory, Category[]>({
        family: 'categoryIndex',
        key: `parent_category:${catid}`,
        tags: [`cat:${catid}`],
        request: { method: 'GET', path: `/api/rmt/get_parent_category?id=${catid}`, call: 'get_parent_category' },
        schema: RawParentCategorySchema,
        stored: STORED.categories,
        normalise: (raw) => raw.list.map(normalise.category),
        empty: [],
      }),
  };
}
