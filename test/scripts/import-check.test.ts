/**
 * scripts/import-check.mjs, the CI rule that shared/ imports nothing from client/ or server/, the product nothing
 * from scripts/, that no module imports itself round a circle (type-only imports included), and that shared/ holds
 * only what the browser runs too: on small trees written for the case, then on the project itself.
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
      'client/entry.ts': `import '../${from.replace(/\.ts$/, '')}';\n`,
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
        'client/entry.ts': "import { a } from '../shared/a';\nexport const page = a;\n",
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

  it('passes shared/ modules the client reaches, importing browser packages', async () => {
    expect(
      await findingsOf({
        'shared/ui/page.tsx':
          "import { useState } from 'react';\nimport dayjs from 'dayjs';\nimport utc from 'dayjs/plugin/utc';\nexport const page = [useState, dayjs, utc];\n",
        'shared/types/entity.ts': 'export type Entity = { id: string };\n',
        'client/entry.tsx':
          "import { page } from '../shared/ui/page';\nimport type { Entity } from '../shared/types/entity';\nexport const all: [unknown, Entity?] = [page];\n",
        'server/main.ts': "import { page } from '../shared/ui/page';\nexport const both = page;\n",
      }),
    ).toEqual([]);
  });

  it('fails a shared/ module only the server imports, as a QR encoder there was', async () => {
    const findings = await findingsOf({
      'shared/qr.ts': "import QRCode from 'qrcode';\nexport const qr = (text: string) => QRCode.create(text);\n",
      'shared/time.ts': 'export const now = () => 1;\n',
      'client/entry.ts': "import { now } from '../shared/time';\nexport const at = now();\n",
      'server/qr-images.ts': "import { qr } from '../shared/qr';\nexport const image = qr('a');\n",
    });
    expect(findings).toEqual([
      'shared/qr.ts no client/ module reaches it (imported only by server/qr-images.ts): shared/ holds what both sides run; move it under server/ or scripts/',
      'shared/qr.ts imports qrcode, not a package of the browser bundle (BROWSER_PACKAGES): shared/ runs in the browser too',
    ]);
  });

  it('fails a shared/ module nothing imports', async () => {
    const findings = await findingsOf({ 'shared/orphan.ts': 'export const orphan = 1;\n', 'client/entry.ts': 'export const at = 1;\n' });
    expect(findings).toEqual([
      'shared/orphan.ts no client/ module reaches it (imported by nothing): shared/ holds what both sides run; move it under server/ or scripts/',
    ]);
  });

  it.each([
    ['a node: builtin', 'node:crypto', 'a Node builtin'],
    ['a bare builtin', 'fs/promises', 'a Node builtin'],
    ['a Node-only package', 'ioredis', 'not a package of the browser bundle (BROWSER_PACKAGES)'],
    ['a scoped package', '@types/node', 'not a package of the browser bundle (BROWSER_PACKAGES)'],
  ])('fails a shared/ module the client reaches that imports %s', async (_kind, specifier, what) => {
    const findings = await findingsOf({
      'shared/hash.ts': `import type * as Lib from '${specifier}';\nexport type Hash = typeof Lib;\n`,
      'client/entry.ts': "import type { Hash } from '../shared/hash';\nexport type Entry = Hash;\n",
    });
    expect(findings).toEqual([`shared/hash.ts imports ${specifier}, ${what}: shared/ runs in the browser too`]);
  });

  it('finds nothing in the project', async () => {
    expect(await runCheck(PROJECT_ROOT)).toEqual([]);
  });
});
