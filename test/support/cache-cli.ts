/**
 * The cache CLI as operators run it, a child process, for suites that drive it against their own Redis.
 * Bundled as scripts/build.mjs bundles `portal-cache` (dist/cli), but to a file of this test process's own,
 * so suites running side by side never execute a bundle another one is rewriting.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../../server/render/assets';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CacheCli {
  /** The bundle (for a test that must read the child's output as it comes). */
  file: string;
  run(...args: string[]): Promise<CliRun>;
  /** Runs with --json and parses stdout; throws with stderr when the exit code is not 0. */
  json<T>(...args: string[]): Promise<T>;
  /** Deletes this process's bundle. */
  remove(): void;
}

export async function buildCacheCli(env: Record<string, string>): Promise<CacheCli> {
  const outfile = path.join(PROJECT_ROOT, 'dist/run', `cache-cli-test-${process.pid}.cjs`);
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: ['scripts/cache-cli.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  const run = (...args: string[]): Promise<CliRun> =>
    new Promise((resolve) => {
      execFile(process.execPath, [outfile, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
  return {
    file: outfile,
    run,
    json: async <T>(...args: string[]): Promise<T> => {
      const result = await run('--json', ...args);
      if (result.code !== 0) throw new Error(`cache ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    remove: () => rmSync(outfile, { force: true }),
  };
}
