/**
 * How a page's loader.ts gives a loader to each route of its page:
 * `export default definePageLoaders(route, { 'newsTrack-id': loadNewsTrack })`. The compiler checks that every
 * route of the page has one and that each returns the page's data type (the type its component takes); the list
 * of loaders (./index.ts) is typed by page in ./registry.ts, so a page's line must name its own loader.ts.
 */
import type { PageDef } from '../../shared/pages/define';
import type { Loader } from './types';

export interface PageLoaders<P extends string, Id extends string, Data> {
  route: PageDef<P, Id, Data>;
  loaders: { readonly [K in Id]: Loader<Data> };
}

export function definePageLoaders<P extends string, Id extends string, Data>(
  route: PageDef<P, Id, Data>,
  loaders: { readonly [K in Id]: Loader<Data> },
): PageLoaders<P, Id, Data> {
  return { route, loaders };
}
