/**
 * Which loader fills each route's page, found by convention: the page `newsTrack` of the list of pages
 * (shared/pages/index.ts) lives in the folder `news-track`, and its loaders are the default export of that
 * folder's `loader.ts` (definePageLoaders, shared/loaders/define.ts). No second list to keep: esbuild bundles every
 * file the template below can name (a glob import), and Node (ts-jest, scripts/run-ts.mjs) resolves it when called.
 * Every page's loaders are resolved and checked when this module loads, so a page without a loader, or a
 * loader.ts that is not its page's, stops the server at startup.
 *
 * Server only: the loaders read the content API; scripts/build.mjs fails if one is reachable from the browser.
 */
import { isPageLoadersOf, type PageLoaders } from '../../shared/loaders/define';
import type { Loader } from '../../shared/loaders/types';
import type { PageData, PageId, PageRouteIdOf } from '../../shared/page-data';
import { PAGES } from '../../shared/pages/registry';

/** The folder of a page: its id in kebab case (`newsTrack` → `news-track`). */
export function pageFolder(page: string): string {
  return page.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The source of a page's loader.ts, relative to the project root (what the build and its tests name). */
export function loaderSource(page: string): string {
  return `shared/pages/${pageFolder(page)}/loader.ts`;
}

function defaultExport(module: unknown): unknown {
  return typeof module === 'object' && module !== null && 'default' in module ? module.default : undefined;
}

function requireLoaderModule(folder: string): unknown {
  // A template-literal require is what esbuild turns into a glob of shared/pages/*/loader.ts (an import() would
  // make every page's loading asynchronous for nothing).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`../../shared/pages/${folder}/loader.ts`);
}

/**
 * The loader table a page's loader.ts module exports, checked to be the one definePageLoaders made for this page's
 * route and to cover every route of it; throws, naming the file, otherwise.
 */
export function pageLoadersFrom<P extends PageId>(page: P, module: unknown): PageLoaders<P, PageRouteIdOf<P>, PageData<P>> {
  const { route } = PAGES[page];
  const source = loaderSource(page);
  const table = defaultExport(module);
  if (!isPageLoadersOf(table, route)) throw new Error(`${source} must export default definePageLoaders(route, …) for page ${page}`);
  const missing = route.routes.filter((each) => typeof table.loaders[each.id] !== 'function').map((each) => each.id);
  if (missing.length > 0) throw new Error(`${source} has no loader for route ${missing.join(', ')}`);
  return table;
}

/** Loads the module of a page's loader.ts from its folder; throws "page … has no loader" when there is none. */
export function requirePageLoaders(page: string, folder = pageFolder(page)): unknown {
  try {
    return requireLoaderModule(folder);
  } catch (error) {
    throw new Error(`page ${page} has no loader: shared/pages/${folder}/loader.ts could not be loaded`, { cause: error });
  }
}

function isPageId(name: string): name is PageId {
  return Object.hasOwn(PAGES, name);
}

const RESOLVED = new Map<PageId, unknown>();
for (const page of Object.keys(PAGES).filter(isPageId)) RESOLVED.set(page, pageLoadersFrom(page, requirePageLoaders(page)));

/** The loader of one route of a page: typed by the page, so what it returns is what the page's component takes. */
export function loaderOf<P extends PageId>(page: P, routeId: PageRouteIdOf<P>): Loader<PageData<P>> {
  const table = RESOLVED.get(page);
  // Always true (every page was resolved above); the guard is what tells the compiler the table's types.
  if (!isPageLoadersOf(table, PAGES[page].route)) throw new Error(`page ${page} has no loader`);
  return table.loaders[routeId];
}
