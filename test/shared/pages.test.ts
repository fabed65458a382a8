/**
 * A page is one folder of shared/pages, for what both sides run, and one of server/pages, for its loader
 * (docs/adding-a-page.md): the list of pages has exactly one line per folder, named by the folder, and every
 * folder has its route, component and index. The loaders' side is test/server/pages/registry.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { page } from '../../shared/pages/define';
import HomePage from '../../shared/pages/home/HomePage';
import newsTrackRoute from '../../shared/pages/news-track/route';
import { PAGES } from '../../shared/pages/registry';
import { PROJECT_ROOT } from '../../server/render/assets';

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

  it.each(folders)('%s: route, component and index, the route naming the page by its folder; no server code', (folder) => {
    const files = readdirSync(path.join(PAGES_DIR, folder));
    expect(files).toEqual(expect.arrayContaining(['route.ts', 'index.ts']));
    // Its loader is server/pages/<folder>/loader.ts (test/server/pages/registry.test.ts).
    expect(files).not.toContain('loader.ts');
    expect(files.filter((file) => /^[A-Z]\w*Page\.tsx$/.test(file))).toHaveLength(1);
    const id = camel(folder);
    expect(Object.entries(PAGES).find(([name]) => name === id)?.[1].route.id).toBe(id);
  });
});

/**
 * Never called: what the compiler refuses (`npx tsc --noEmit -p .` fails if one of these compiles). A page's
 * component takes its route's data type exactly.
 */
export function refusedByTheCompiler(): unknown[] {
  return [
    // @ts-expect-error home's component does not take a news-tracking report
    page(newsTrackRoute, HomePage),
  ];
}
