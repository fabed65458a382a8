/**
 * A page is one folder of shared/pages (docs/adding-a-page.md): the list of pages has exactly one line per
 * folder, named by the folder; every folder has its route, component, index and loader; every route of the table
 * has a loader, found by convention; a loader.ts that is missing or not its page's stops the server; and the
 * server bundle carries every page's loader.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { definePageLoaders } from '../../shared/loaders/define';
import { page } from '../../shared/pages/define';
import HomePage from '../../shared/pages/home/HomePage';
import { loadHeadlineNews } from '../../shared/pages/article-feed/loader';
import articleFeedRoute from '../../shared/pages/article-feed/route';
import newsTrackRoute from '../../shared/pages/news-track/route';
import newsTrackLoaders from '../../shared/pages/news-track/loader';
import { PAGES } from '../../shared/pages/registry';
import { routeTable } from '../../shared/routes';
import { PROJECT_ROOT } from '../../server/render/assets';
import { loaderOf, loaderSource, pageFolder, pageLoadersFrom, requirePageLoaders } from '../../server/render/page-loaders';

const PAGES_DIR = path.join(PROJECT_ROOT, 'shared/pages');

const folders = readdirSync(PAGES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const camel = (folder: string): string => folder.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());

describe('the list of pages', () => {
  it('has exactly one line per folder of shared/pages, its route module, named by the folder in camelCase', () => {
    const lines = readFileSync(path.join(PAGES_DIR, 'index.ts'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('export'));
    expect(lines.sort()).toEqual(folders.map((folder) => `export { default as ${camel(folder)} } from './${folder}/route';`).sort());
    expect(Object.keys(PAGES).sort()).toEqual(folders.map(camel).sort());
  });

  it.each(folders)('%s: route, component, index and loader, the route naming the page by its folder', (folder) => {
    const files = readdirSync(path.join(PAGES_DIR, folder));
    expect(files).toEqual(expect.arrayContaining(['route.ts', 'index.ts', 'loader.ts']));
    expect(files.filter((file) => /^[A-Z]\w*Page\.tsx$/.test(file))).toHaveLength(1);
    const id = camel(folder);
    expect(pageFolder(id)).toBe(folder);
    expect(Object.entries(PAGES).find(([name]) => name === id)?.[1].route.id).toBe(id);
  });

  it('gives every route of the table that shows a page a loader', () => {
    const pageRoutes = routeTable().flatMap((route) => (route.page === undefined ? [] : [route]));
    expect(pageRoutes.length).toBeGreaterThan(folders.length);
    for (const route of pageRoutes) expect([route.id, typeof loaderOf(route.page, route.id)]).toEqual([route.id, 'function']);
  });
});

describe("a page's loader.ts is checked when the server starts", () => {
  it("takes the table definePageLoaders made for the page's own route", () => {
    expect(pageLoadersFrom('newsTrack', { default: newsTrackLoaders }).loaders['newsTrack-id']).toBe(newsTrackLoaders.loaders['newsTrack-id']);
  });

  it('refuses a module without that table, naming the file', () => {
    expect(() => pageLoadersFrom('newsTrack', {})).toThrow(`${loaderSource('newsTrack')} must export default definePageLoaders(route, …) for page newsTrack`);
    // Another page's table, and a lookalike that did not come from definePageLoaders.
    expect(() => pageLoadersFrom('home', { default: newsTrackLoaders })).toThrow('shared/pages/home/loader.ts must export default definePageLoaders');
    const lookalike = { route: newsTrackRoute, loaders: { ...newsTrackLoaders.loaders } };
    expect(() => pageLoadersFrom('newsTrack', { default: lookalike })).toThrow('must export default definePageLoaders');
  });

  it('stops on a page whose folder has no loader.ts', () => {
    expect(() => requirePageLoaders('newsTrack', 'no-such-page')).toThrow(
      'page newsTrack has no loader: shared/pages/no-such-page/loader.ts could not be loaded',
    );
  });

  it('bundles every loader into the server (npm test builds it first)', () => {
    const metafile = path.join(PROJECT_ROOT, 'dist/server/metafile.json');
    expect(existsSync(metafile)).toBe(true);
    const inputs = Object.keys((JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, unknown> }).inputs);
    for (const id of Object.keys(PAGES)) expect(inputs).toContain(loaderSource(id));
  });
});

/**
 * Never called: what the compiler refuses (`npx tsc --noEmit -p .` fails if one of these compiles). A page's
 * component and loaders take and return its route's data type exactly, and every route of it has a loader.
 */
export function refusedByTheCompiler(): unknown[] {
  return [
    // @ts-expect-error home's component does not take a news-tracking report
    page(newsTrackRoute, HomePage),
    // @ts-expect-error the article feed's routes specialColumnDetail-id and tagDetail have no loader
    definePageLoaders(articleFeedRoute, { headlineNews: loadHeadlineNews }),
    // @ts-expect-error an article feed loader does not return a news-tracking report
    definePageLoaders(newsTrackRoute, { 'newsTrack-id': loadHeadlineNews }),
  ];
}
