/**
 * scripts/import-check.mjs's floors of server/ (SERVER_FLOORS): a folder imports only from the folders below it,
 * so two folders cannot circle each other even when no two of their files do. On small trees written for the
 * case, then on the project itself.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/render/assets';

const CHECK = path.join(PROJECT_ROOT, 'scripts/import-check.mjs');

/** The check's findings on a tree: one per line of its error output, none when it exits 0. */
function runCheck(root: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHECK, root], (error, _stdout, stderr) => {
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

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function findingsOf(files: Record<string, string>): Promise<string[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'import-floors-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return runCheck(root);
}

/** A tree whose folders import downwards only: platform/ ← cache/ ← edge/ ← render/ ← server/'s own files. */
const DOWNWARDS: Record<string, string> = {
  'server/platform/log.ts': 'export const log = (line: string) => line;\n',
  'server/cache/store.ts': "import { log } from '../platform/log';\nexport const get = () => log('get');\n",
  'server/edge/hits.ts': "import { get } from '../cache/store';\nexport const hit = () => get();\n",
  'server/render/page.ts': "import { hit } from '../edge/hits';\nexport const page = () => hit();\n",
  'server/main.ts': "import { page } from './render/page';\nexport const main = () => page();\n",
};

describe("the import check's floors of server/", () => {
  it('passes folders that import only from the floors below them', async () => {
    expect(await findingsOf(DOWNWARDS)).toEqual([]);
  });

  it('fails a folder circle that no file circle makes', async () => {
    const findings = await findingsOf({
      ...DOWNWARDS,
      'server/edge/head.ts': "import type { Shape } from '../render/shape';\nexport const head = (shape: Shape) => shape.length;\n",
      'server/render/shape.ts': 'export type Shape = string;\n',
    });
    expect(findings).toEqual([
      'server/edge/head.ts imports server/render/shape.ts: server/edge/ imports only from the floors below it (SERVER_FLOORS), and server/render/ is above it',
    ]);
  });

  it("fails a folder importing server/'s own files, which put the folders together", async () => {
    const findings = await findingsOf({ ...DOWNWARDS, 'server/cache/wired.ts': "import { main } from '../main';\nexport const wired = main;\n" });
    expect(findings).toEqual([
      "server/cache/wired.ts imports server/main.ts: server/cache/ imports only from the floors below it (SERVER_FLOORS), and the wiring at server/'s root is above it",
    ]);
  });

  it('fails a folder that has no place among the floors', async () => {
    const findings = await findingsOf({ ...DOWNWARDS, 'server/gadgets/knob.ts': 'export const knob = 1;\n' });
    expect(findings).toEqual(['server/gadgets/ is on no floor: give it its place in SERVER_FLOORS (scripts/import-check.mjs)']);
  });

  it('finds no folder out of order in the project', async () => {
    expect(await runCheck(PROJECT_ROOT)).toEqual([]);
  });
});
