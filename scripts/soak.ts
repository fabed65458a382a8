/**
 * `npm run soak`: mixed routes on two portal instances sharing Redis, with a purge of everything every 30 s
 * through the operator CLI, for SOAK_SECONDS (default 300). Every 10 s it prints requests, errors, RSS, heap and
 * event-loop delay, then the curve and the growth of RSS and heap from the middle third to the last (the first
 * third is warm-up), and exits 1 if any request failed or RSS grew more than 5 %. Loopback only.
 *
 * `npm run soak -- --fill-l1`: instead, one built portal with its L1 filled to L1_CACHE_MAX_MB (SOAK_L1_MB,
 * default 128) and its RSS, heap and L1 bytes reported (soak/fill-l1.ts): what deploy/k8s/portal.yaml's memory
 * request and limit come from.
 */
import { execFile, execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Writable } from 'node:stream';
import { startReferenceApi } from './reference-api/server';
import { loadConfig } from '../server/platform/config';
import { listen, type RunningServer } from '../server/http-server';
import { createLogger } from '../server/platform/logger';
import { createPortal } from '../server/portal';
import { PROJECT_ROOT } from '../server/render/assets';
import { describeFigures, fillL1 } from './soak/fill-l1';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const REDIS_URL = process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PURGE_EVERY_MS = 30_000;
const SAMPLE_EVERY_MS = 10_000;
const CONCURRENCY = 8;
const PREFIX = `soak${process.pid}`;
const run = promisify(execFile);

interface Sample {
  second: number;
  requests: number;
  errors: number;
  rssMb: number;
  heapMb: number;
  lagP99Ms: number;
}

const quiet = new Writable({ write: (_chunk, _encoding, callback) => callback() });

async function startPortal(upstreamUrl: string): Promise<RunningServer> {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', REDIS_URL, CACHE_PREFIX: PREFIX, UPSTREAM_URL: upstreamUrl, LOG_LEVEL: 'warn' });
  const logger = createLogger('warn', quiet);
  return listen(createPortal({ config, logger, upstreamUrl }), 0, '127.0.0.1', logger, 5000);
}

function get(url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
  });
}

async function purgeAll(): Promise<void> {
  const cli = path.join(__dirname, '../cli/portal-cache.cjs');
  await run(process.execPath, [cli, '--redis', REDIS_URL, '--prefix', PREFIX, 'purge', '--all'], { timeout: 20_000 }).catch((error: unknown) => {
    console.error(`purge failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/** RSS growth from the middle third of the samples to the last allowed before the soak fails (issue 35). */
const GROWTH_LIMIT = 0.05;

async function main(): Promise<void> {
  if (process.argv.includes('--fill-l1')) return fillMain();
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const portals = [await startPortal(upstream.url), await startPortal(upstream.url)];
  const paths = [
    '/',
    '/home',
    '/detail/2728/33727',
    '/V1/2728',
    '/V2/2729?page=2',
    '/topic/2751',
    '/about',
    '/specialColumn',
    '/headlineNews',
    '/shike/2839',
    '/search/5paw6Ze7/2',
    '/nope',
    '/electronic',
  ];
  const urls = portals.flatMap((portal) => paths.map((p) => portal.url + p));
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  let requests = 0;
  let errors = 0;
  let next = 0;
  const samples: Sample[] = [];

  const sampler = setInterval(() => {
    const memory = process.memoryUsage();
    const sample: Sample = {
      second: Math.round((Date.now() - started) / 1000),
      requests,
      errors,
      rssMb: Math.round(memory.rss / 1048576),
      heapMb: Math.round(memory.heapUsed / 1048576),
      lagP99Ms: Math.round(lag.percentile(99) / 1e6),
    };
    samples.push(sample);
    lag.reset();
    console.log(JSON.stringify(sample));
  }, SAMPLE_EVERY_MS);
  const purger = setInterval(() => void purgeAll(), PURGE_EVERY_MS);

  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline) {
        const status = await get(urls[next++ % urls.length]!, agent);
        requests += 1;
        // 404 is the expected answer of /nope; anything else outside 200 is a failure.
        if (status !== 200 && status !== 404) errors += 1;
      }
    }),
  );
  clearInterval(sampler);
  clearInterval(purger);
  agent.destroy();
  for (const portal of portals) await portal.shutdown();
  await upstream.close();

  console.log('second  requests  errors  rss MB  heap MB  lag p99 ms');
  for (const s of samples)
    console.log(
      `${String(s.second).padStart(6)}  ${String(s.requests).padStart(8)}  ${String(s.errors).padStart(6)}  ${String(s.rssMb).padStart(6)}  ${String(s.heapMb).padStart(7)}  ${String(s.lagP99Ms).padStart(10)}`,
    );
  // Flat means: the last third's RSS within 5 % of the middle third's (the first third is warm-up).
  const third = Math.max(1, Math.floor(samples.length / 3));
  const mean = (list: Sample[], of: (sample: Sample) => number) => list.reduce((sum, s) => sum + of(s), 0) / Math.max(1, list.length);
  const growth = (of: (sample: Sample) => number) => {
    const middle = mean(samples.slice(third, 2 * third), of);
    const last = mean(samples.slice(2 * third), of);
    return { middle, last, ratio: last / middle - 1 };
  };
  const rss = growth((sample) => sample.rssMb);
  const heap = growth((sample) => sample.heapMb);
  const growing = samples.length >= 3 && rss.ratio > GROWTH_LIMIT;
  const percent = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)} %`;
  console.log(
    `requests ${requests}, errors ${errors}, rss middle ${rss.middle.toFixed(0)} MB → last ${rss.last.toFixed(0)} MB (${percent(rss.ratio)}), ` +
      `heap ${heap.middle.toFixed(0)} → ${heap.last.toFixed(0)} MB (${percent(heap.ratio)})${growing ? ' (GROWING)' : ' (flat)'}`,
  );
  process.exit(errors === 0 && !growing ? 0 : 1);
}

/** --fill-l1: the built portal's memory with L1 full, and what the manifest should ask for. */
async function fillMain(): Promise<void> {
  // The portal as deployed: the production bundle of this tree.
  execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/build.mjs'), '--if-needed'], { stdio: 'inherit' });
  const l1Mb = Number(process.env.SOAK_L1_MB ?? 128);
  const figures = await fillL1(REDIS_URL, l1Mb);
  const peakMi = figures.peakRssBytes / 1048576;
  console.log(`L1_CACHE_MAX_MB=${l1Mb}: ${describeFigures(figures)}`);
  console.log(
    `memory request ≥ peak RSS ${peakMi.toFixed(0)} Mi; limit with 25 % headroom ≥ ${(peakMi * 1.25).toFixed(0)} Mi (docs/operations.md "Kubernetes")`,
  );
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
