/**
 * CLI entry: `node scripts/run-ts.mjs scripts/reference-api/main.ts`.
 * Env: UPSTREAM_PORT (default 3100), UPSTREAM_SEED, UPSTREAM_LATENCY_MS (added to every path),
 * UPSTREAM_HOST (default 127.0.0.1; any other address turns the unauthenticated /__control plane off),
 * UPSTREAM_PUBLIC_URL (prefix of media URLs as readers reach them, e.g. in docker-compose).
 */
import { startReferenceApi } from './server';

function intFromEnv(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return value;
}

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

async function main(): Promise<void> {
  const port = intFromEnv('UPSTREAM_PORT', 3100) ?? 3100;
  const seed = intFromEnv('UPSTREAM_SEED', undefined);
  const latencyMs = intFromEnv('UPSTREAM_LATENCY_MS', 0) ?? 0;
  const host = process.env.UPSTREAM_HOST?.trim() || '127.0.0.1';
  const publicUrl = process.env.UPSTREAM_PUBLIC_URL?.trim();
  const running = await startReferenceApi({
    port,
    host,
    ...(isLoopback(host) ? {} : { controlPlane: false }),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(seed !== undefined ? { seed } : {}),
    menuFaults: process.env.UPSTREAM_MENU_FAULTS === '1',
    latency: latencyMs > 0 ? [{ path: '/', ms: latencyMs }] : [],
  });

  console.log(
    JSON.stringify({
      level: 'info',
      msg: 'reference API listening',
      url: running.url,
      seed: running.api.dataset.seed,
      now: running.api.dataset.now,
      articles: running.api.dataset.articles.length,
      latencyMs,
    }),
  );

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => {
        console.log(JSON.stringify({ level: 'info', msg: 'reference API stopped', signal }));
        process.exit(0);
      },
      (error: unknown) => {
        console.error(JSON.stringify({ level: 'error', msg: 'reference API failed to stop', error: String(error) }));
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

// No top-level await: the runner may compile this file to CommonJS.
main().catch((error: unknown) => {
  console.error(JSON.stringify({ level: 'error', msg: 'reference API failed to start', error: String(error) }));
  process.exit(1);
});
