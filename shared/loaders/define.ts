/**
 * How a page folder's loader.ts (server only) gives a loader to each route of its page:
 * `export default definePageLoaders(route, { 'newsTrack-id': loadNewsTrack })`. The compiler checks that every
 * route of the page has one and that each returns the page's data type (the type its component takes);
 * server/render/page-loaders.ts finds the file by the page's folder and checks, at startup, that its default
 * export was made here for that very route.
 */
import type { PageDef } from '../pages/define';
import type { Loader } from './types';

export interface PageLoaders<P extends string, Id extends string, Data> {
  route: PageDef<P, Id, Data>;
  loaders: { readonly [K in Id]: Loader<Data> };
}

/** Every table definePageLoaders made: the proof that a table's loaders were checked against its route's types. */
const DEFINED = new WeakSet<object>();

export function definePageLoaders<P extends string, Id extends string, Data>(
  route: PageDef<P, Id, Data>,
  loaders: { readonly [K in Id]: Loader<Data> },
): PageLoaders<P, Id, Data> {
  const table = { route, loaders };
  DEFINED.add(table);
  return table;
}

/**
 * Whether a module's export is the loader table definePageLoaders made for this route. Sound as a type guard:
 * only definePageLoaders adds to DEFINED, and its signature tied the loaders to this route's ids and data.
 */
export function isPageLoadersOf<P extends string, Id extends string, Data>(value: unknown, route: PageDef<P, Id, Data>): value is PageLoaders<P, Id, Data> {
  return typeof value === 'object' && value !== null && DEFINED.has(value) && 'route' in value && value.route === route;
}
