/**
 * Each page's id and data, derived from the list of pages (shared/pages/index.ts, their route modules): a page's id is its name in
 * the list, its data the type its route.ts gives definePage, which is what its loader returns and its component
 * takes. Type-only: nothing here reaches a bundle.
 */
import type { DataOf, RouteIdOf } from './pages/define';
import type * as pageList from './pages';

type PageList = typeof pageList;

export type PageId = keyof PageList;

export type PageDataMap = { [P in PageId]: DataOf<PageList[P]> };

export type PageData<P extends PageId> = PageDataMap[P];

/** The ids of the routes that show a page. */
export type PageRouteIdOf<P extends PageId> = RouteIdOf<PageList[P]>;
