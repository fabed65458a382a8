/**
 * The build's check that no server-only code reaches the browser (scripts/client-bundle-check.mjs): fixture entries
 * that reach a loader, server/ or the reference content API, statically, dynamically or through another module,
 * are refused with the import chain; type-only imports pass; and the real browser build passes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../../server/render/assets';

const FIXTURES = 'test/fixtures/client-bundle';
const CHECK = path.join(PROJECT_ROOT, 'scripts/client-bundle-check.mjs');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runCheck(metafilePath: string, entry: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CHECK, metafilePath, entry], { cwd: PROJECT_ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Bundles a fixture entry the way the browser build does (split, so dynamic imports are their own chunks). */
async function metafileOf(entry: string): Promise<string> {
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: path.join(tmpdir(), 'client-bundle-check-out'),
    packages: 'external',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'client-bundle-check-')), 'metafile.json');
  writeFileSync(file, JSON.stringify(result.metafile));
  return file;
}

describe('the browser bundle carries no server-only code', () => {
  it.each([
    ['imports-loader.ts', 'server/pages/home/loader.ts', 'server code'],
    ['imports-server-lazily.ts', 'server/pages/registry.ts', 'server code'],
    ['via-helper.ts', 'scripts/reference-api/dataset.ts', 'the reference content API'],
  ])('refuses %s, which reaches %s', async (fixture, offender, why) => {
    const entry = `${FIXTURES}/${fixture}`;
    const run = await runCheck(await metafileOf(entry), entry);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`server-only code is reachable from ${entry}`);
    expect(run.stderr).toContain(`${offender} (${why}`);
    // The chain starts at the entry and ends at the offender.
    expect(run.stderr).toMatch(new RegExp(`${entry.replace(/[.]/g, '\\.')} → .*${offender.replace(/[.]/g, '\\.')}`));
  });

  it('lets type-only imports of loader modules through', async () => {
    const entry = `${FIXTURES}/type-only.ts`;
    const run = await runCheck(await metafileOf(entry), entry);
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('no server-only code reachable') });
  });

  it('passes the real browser build (npm test builds it first)', async () => {
    const run = await runCheck(path.join(PROJECT_ROOT, 'dist/client/metafile.json'), 'client/entry.tsx');
    expect(run).toMatchObject({ code: 0 });
  });
});
