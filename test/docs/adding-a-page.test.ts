/**
 * docs/adding-a-page.md walks through a real page: every code block it opens with `// <file>` must appear
 * verbatim in that file, its listing of the page's folder must be the folder's files, and every file it names
 * must exist. A doc that drifts from the code fails here, not in a reader's hands.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/render/assets';

const DOC = readFileSync(path.join(PROJECT_ROOT, 'docs/adding-a-page.md'), 'utf8');

const blocks = [...DOC.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((found) => ({ lang: found[1] ?? '', body: found[2] ?? '' }));

const fileBlocks = blocks.flatMap(({ body }) => {
  const [first, ...rest] = body.split('\n');
  const file = /^\/\/ ((?:shared|server|client|scripts|test)\/\S+)$/.exec(first ?? '')?.[1];
  return file ? [{ file, code: rest.join('\n') }] : [];
});

describe('docs/adding-a-page.md', () => {
  it('shows the files of the walked-through page', () => {
    expect(fileBlocks.map(({ file }) => file)).toEqual(
      expect.arrayContaining([
        'shared/pages/news-track/route.ts',
        'shared/pages/news-track/NewsTrackPage.tsx',
        'shared/pages/news-track/index.ts',
        'server/pages/news-track/loader.ts',
        'shared/pages/index.ts',
        'server/pages/index.ts',
      ]),
    );
  });

  it.each(fileBlocks.map(({ file, code }) => [file, code] as const))('quotes %s as it is', (file, code) => {
    const source = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
    expect(code.trim().length).toBeGreaterThan(0);
    expect(source).toContain(code.trimEnd());
  });

  it.each(['shared/pages/news-track', 'server/pages/news-track'])("lists the page's folder %s as it is", (folder) => {
    const listing = blocks.find(({ lang, body }) => lang === '' && body.startsWith(`${folder}/`));
    const listed = (listing?.body ?? '')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/)[0])
      .filter((name): name is string => Boolean(name));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.sort()).toEqual(readdirSync(path.join(PROJECT_ROOT, folder)).sort());
  });

  it('names only files that exist', () => {
    const named = [...DOC.matchAll(/`((?:shared|server|client|scripts|test)\/[\w./-]+\.(?:ts|tsx|mjs))`/g)].map((found) => found[1]!);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((file) => !existsSync(path.join(PROJECT_ROOT, file)))).toEqual([]);
  });
});
