/**
 * scripts/build-state.mjs: a build is stale when a source it is built from is newer, and a page's own test
 * beside its loader in server/pages (never bundled) does not make it so.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../../server/render/assets';

const MODULE = pathToFileURL(path.join(PROJECT_ROOT, 'scripts/build-state.mjs')).href;

/** The script is an ES module run by Node as it is (no bundling), so it is asked in a child process. */
function ask(expression: string): unknown {
  const source = `import { buildState, OUTPUTS } from ${JSON.stringify(MODULE)}; console.log(JSON.stringify(${expression}));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8' }));
}

const listed = ask('OUTPUTS');
const OUTPUTS = Array.isArray(listed) ? listed.map(String) : [];
const buildState = (root: string): unknown => ask(`buildState(${JSON.stringify(root)})`);

function writeAt(root: string, file: string, seconds: number): void {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, seconds, seconds);
}

describe('the build state', () => {
  const builtAt = 1_700_000_000;
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'build-state-'));
    writeAt(root, 'shared/pages/news-track/route.ts', builtAt - 10);
    expect(OUTPUTS.length).toBeGreaterThan(0);
    for (const output of OUTPUTS) writeAt(root, output, builtAt);
  });

  it('is current when no source is newer than the bundles', () => {
    expect(buildState(root)).toEqual({ state: 'current' });
  });

  it("stays current when only a page's own test changed", () => {
    writeAt(root, 'server/pages/news-track/news-track.test.ts', builtAt + 10);
    expect(buildState(root)).toEqual({ state: 'current' });
  });

  it('is stale when a page source changed, naming it', () => {
    writeAt(root, 'server/pages/news-track/loader.ts', builtAt + 10);
    expect(buildState(root)).toEqual({ state: 'stale', changed: 'server/pages/news-track/loader.ts' });
  });
});
