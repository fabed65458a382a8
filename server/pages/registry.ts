/**
 * Every page's loaders by page id: the list of loaders (./index.ts), imported statically, so the server bundle
 * holds every loader and tools can follow each import. Typed as one entry per page of the list of pages: a page
 * missing from the list, a name that is no page, or a line naming another page's loader.ts does not compile
 * (definePageLoaders tied each loader.ts to its route's ids and data type).
 */
import type { PageData, PageId, PageRouteIdOf } from '../../shared/page-data';
import type { PageLoaders } from './define';
import * as list from './index';
import type { Loader } from './types';

export type PageLoadersOf<P extends PageId> = PageLoaders<P, PageRouteIdOf<P>, PageData<P>>;

/** The list's own type when every name in it is a page id; never (which no list satisfies) otherwise. */
type OnlyPages<T> = [Exclude<keyof T, PageId>] extends [never] ? T : never;

export const PAGE_LOADERS: { readonly [P in PageId]: PageLoadersOf<P> } = list satisfies OnlyPages<typeof list>;

/** The loader of one route of a page: typed by the page, so what it returns is what the page's component takes. */
export function loaderOf<P extends PageId>(page: P, routeId: PageRouteIdOf<P>): Loader<PageData<P>> {
  return PAGE_LOADERS[page].loaders[routeId];
}
