/**
 * scripts/import-check.mjs, the CI rule that shared/ imports nothing from client/ or server/, the product nothing
 * from scripts/, and that no module imports itself round a circle (type-only imports included): on small trees written for the case, then on the project itself.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/render/assets';

const CHECK = path.join(PROJECT_ROOT, 'scripts/import-check.mjs');

/** The check's findings on a tree, as CI runs it: one per line of its error output, none when it exits 0. */
function runCheck(root: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHECK, root], (error, stdout, stderr) => {
      if (!error) return resolve([]);
      if (error.code !== 1) return reject(new Error(`${error.message}\n${stderr}`));
      resolve(
        stderr
          .split('\n')
          .filter((line) => line.startsWith('  '))
          .map((line) => line.trim()),
      );
    });
  });
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'import-check-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

async function findingsOf(files: Record<string, string>): Promise<string[]> {
  const root = tree(files);
  roots.push(root);
  return runCheck(root);
}

describe('the import check', () => {
  it('passes a tree where shared/ is imported from above and nothing circles', async () => {
    expect(
      await findingsOf({
        'shared/time.ts': 'export const now = () => 1;\n',
        'client/entry.ts': "import { now } from '../shared/time';\nexport const at = now();\n",
        'server/main.ts': "import { now } from '../shared/time';\nimport { at } from '../client/entry';\nexport const both = [now(), at];\n",
      }),
    ).toEqual([]);
  });

  it.each([
    ['a value', "import { x } from '../client/x';\nexport const y = x;\n", 'client/x.ts'],
    ['a type only', "import type { X } from '../../server/x';\nexport type Y = X;\n", 'server/x.ts'],
    ['a re-export', "export { x } from '../client/x';\n", 'client/x.ts'],
  ])('fails shared/ importing from a side by %s', async (_kind, source, target) => {
    const from = source.includes('../../') ? 'shared/deep/y.ts' : 'shared/y.ts';
    const findings = await findingsOf({
      [from]: source,
      'client/x.ts': 'export const x = 1;\nexport type X = number;\n',
      'server/x.ts': 'export type X = number;\n',
    });
    expect(findings).toEqual([`${from} imports ${target}: shared/ imports nothing from client/ or server/`]);
  });

  it.each([
    [
      'two modules',
      { 'server/a.ts': "import { b } from './b';\nexport const a = () => b;\n", 'server/b.ts': "import { a } from './a';\nexport const b = () => a;\n" },
      2,
    ],
    [
      'types alone (a circle a bundle drops, which still ties the two together)',
      {
        'server/a.ts': "import type { B } from './b';\nexport type A = { b: B };\nexport const one = 1;\n",
        'server/b.ts': "import { one } from './a';\nexport type B = number;\nexport const two = one + 1;\n",
      },
      2,
    ],
    [
      'a long circle across folders, through a dynamic import',
      {
        'shared/a.ts': "import { b } from './ui/b';\nexport const a = () => b;\n",
        'shared/ui/b.tsx': "import { c } from '../pages/c';\nexport const b = () => c;\n",
        'shared/pages/c.ts': "export const c = () => import('../a');\n",
      },
      3,
    ],
  ])('fails an import cycle of %s, naming the circle', async (_kind, files, size) => {
    const findings = await findingsOf(files);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatch(new RegExp(`^import cycle of ${size} modules: (\\S+) → .* → \\1$`));
  });

  it('fails the product importing from scripts/, a type included', async () => {
    const findings = await findingsOf({
      'scripts/tool.ts': 'export type Tool = number;\n',
      'server/main.ts': "import type { Tool } from '../scripts/tool';\nexport type Main = Tool;\n",
    });
    expect(findings).toEqual(['server/main.ts imports scripts/tool.ts: the product imports nothing from scripts/']);
  });

  it('finds nothing in the project', async () => {
    expect(await runCheck(PROJECT_ROOT)).toEqual([]);
  });
});
