/**
 * A portal in a process of its own that a test can crash (SIGKILL: nothing of it runs its shutdown), announcing
 * itself in Redis every `announceEveryMs` (portal-process-main.ts), so what a crash leaves there expires within a
 * test's patience. Bundled like the cache CLI (cache-cli.ts), to a file of this test process's own.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../../server/render/assets';

export interface PortalProcess {
  url: string;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

export async function startPortalProcess(env: Record<string, string>, announceEveryMs: number): Promise<PortalProcess> {
  const outfile = path.join(PROJECT_ROOT, 'dist/run', `portal-process-test-${process.pid}.cjs`);
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: ['test/support/portal-process-main.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    jsx: 'automatic',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  const child = spawn(process.execPath, [outfile], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TEST_ANNOUNCE_EVERY_MS: String(announceEveryMs), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Loaded once it runs: the bundle is not needed after start.
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`portal process exited with ${code}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as { url?: string; msg?: string };
      if (entry.url && entry.msg?.startsWith('portal listening')) resolve(entry.url);
    });
  }).finally(() => rmSync(outfile, { force: true }));
  return {
    url,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
