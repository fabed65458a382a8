/**
 * A page's loader is server/pages/<folder>/loader.ts (docs/adding-a-page.md): the list of loaders has exactly one
 * line per folder, named as the list of pages names it; every folder of shared/pages has its loader and no other
 * folder is there; each page's loaders are the ones made for its own route; every route of the table has one; and
 * the server bundle carries every loader.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { definePageLoaders } from '../../../server/pages/define';
import { loadHeadlineNews } from '../../../server/pages/article-feed/loader';
import { loaderOf, PAGE_LOADERS } from '../../../server/pages/registry';
import { PROJECT_ROOT } from '../../../server/render/assets';
import articleFeedRoute from '../../../shared/pages/article-feed/route';
import newsTrackRoute from '../../../shared/pages/news-track/route';
import { PAGES } from '../../../shared/pages/registry';
import type { PageId } from '../../../shared/page-data';
import { routeTable } from '../../../shared/routes';

const LOADERS_DIR = path.join(PROJECT_ROOT, 'server/pages');

const folderNames = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

const folders = folderNames(LOADERS_DIR);

const camel = (folder: string): string => folder.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());

const isPageId = (name: string): name is PageId => Object.hasOwn(PAGES, name);

describe('the list of page loaders', () => {
  it('has a folder for every folder of shared/pages and no other, each with its loader.ts', () => {
    expect(folders).toEqual(folderNames(path.join(PROJECT_ROOT, 'shared/pages')));
    for (const folder of folders) expect([folder, existsSync(path.join(LOADERS_DIR, folder, 'loader.ts'))]).toEqual([folder, true]);
  });

  it('has exactly one line per folder, its loader.ts, named by the page id', () => {
    const lines = readFileSync(path.join(LOADERS_DIR, 'index.ts'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('export'));
    expect(lines.sort()).toEqual(folders.map((folder) => `export { default as ${camel(folder)} } from './${folder}/loader';`).sort());
    expect(Object.keys(PAGE_LOADERS).sort()).toEqual(Object.keys(PAGES).sort());
  });

  it("gives each page the loaders definePageLoaders made for that page's own route", () => {
    for (const id of Object.keys(PAGES).filter(isPageId)) expect([id, PAGE_LOADERS[id].route === PAGES[id].route]).toEqual([id, true]);
  });

  it('gives every route of the table that shows a page a loader', () => {
    const pageRoutes = routeTable().flatMap((route) => (route.page === undefined ? [] : [route]));
    expect(pageRoutes.length).toBeGreaterThan(folders.length);
    for (const route of pageRoutes) expect([route.id, typeof loaderOf(route.page, route.id)]).toEqual([route.id, 'function']);
  });

  it('bundles every loader into the server (npm test builds it first)', () => {
    const metafile = path.join(PROJECT_ROOT, 'dist/server/metafile.json');
    expect(existsSync(metafile)).toBe(true);
    const inputs = Object.keys((JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, unknown> }).inputs);
    for (const folder of folders) expect(inputs).toContain(`server/pages/${folder}/loader.ts`);
  });
});

/**
 * Never called: what the compiler refuses (`npx tsc --noEmit -p .` fails if one of these compiles). A page's
 * loaders return its route's data type exactly, and every route of it has a loader.
 */
export function refusedByTheCompiler(): unknown[] {
  return [
    // @ts-expect-error the article feed's routes specialColumnDetail-id and tagDetail have no loader
    definePageLoaders(articleFeedRoute, { headlineNews: loadHeadlineNews }),
    // @ts-expect-error an article feed loader does not return a news-tracking report
    definePageLoaders(newsTrackRoute, { 'newsTrack-id': loadHeadlineNews }),
  ];
}
