/**
 * `npm run soak -- --fill-l1`: the memory one instance needs with its L1 full, measured before it is promised in
 * deploy/k8s/portal.yaml (issue 35, item 5). One portal as deployed (dist/server/main.cjs, its own process, so its
 * RSS is its own) on the Redis at SOAK_REDIS_URL (a prefix of its own, deleted afterwards), with L1_CACHE_MAX_MB
 * (SOAK_L1_MB, default 128: the manifest's), asked for distinct pages (every article, then search result pages,
 * one per word) until L1 holds what its bound allows (it starts evicting, or reaches 97 % of it), then for
 * FILL_SETTLE_SECONDS (default 120) half the clients re-read the last pages while the other half go on down the tail
 * (L1 evicting all the while). Prints RSS (now and peak), V8 heap (used and total), external memory and L1 bytes as
 * it goes and at the end. Loopback only.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { startPortalProcess, type Running } from '../bench/processes';
import { articlePaths } from '../bench/render-portals';
import { startReferenceApi } from '../reference-api/server';
import { createRedisClient } from '../../server/redis/client';
import { scanAll, unlinkAll } from '../../server/redis/commands';
import { parseRedisTarget } from '../../server/platform/redis-target';

const MB = 1024 * 1024;
const CONCURRENCY = 4;
const SETTLE_SECONDS = Number(process.env.FILL_SETTLE_SECONDS ?? 120);
/** Search words are made up: every one a page of its own, so there are always more pages than L1 holds. */
const MAX_PAGES = 20_000;

export interface MemoryFigures {
  rssBytes: number;
  peakRssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  l1Bytes: number;
  l1MaxBytes: number;
  l1Evictions: number;
}

/** The process's own RSS and its peak (VmRSS, VmHWM), bytes. */
function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function figuresOf(portal: Running): Promise<MemoryFigures> {
  const text = await (await fetch(`${portal.url}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const { rss, peak } = rssOf(portal.pid);
  return {
    rssBytes: rss,
    peakRssBytes: peak,
    heapUsedBytes: metric('portal_nodejs_heap_size_used_bytes'),
    heapTotalBytes: metric('portal_nodejs_heap_size_total_bytes'),
    externalBytes: metric('portal_nodejs_external_memory_bytes'),
    l1Bytes: metric('portal_cache_l1_bytes'),
    l1MaxBytes: metric('portal_cache_l1_max_bytes'),
    l1Evictions: metric('portal_cache_l1_evictions_total'),
  };
}

export function describeFigures(figures: MemoryFigures): string {
  const mb = (bytes: number) => (bytes / MB).toFixed(0);
  return (
    `rss ${mb(figures.rssBytes)} MB (peak ${mb(figures.peakRssBytes)}), heap ${mb(figures.heapUsedBytes)} of ${mb(figures.heapTotalBytes)} MB, ` +
    `external ${mb(figures.externalBytes)} MB, L1 ${mb(figures.l1Bytes)} of ${mb(figures.l1MaxBytes)} MB (${figures.l1Evictions} evicted)`
  );
}

function get(url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
  });
}

/** Every article's page, then one search page per made-up word. */
async function* distinctPages(upstreamUrl: string): AsyncGenerator<string> {
  for (const path of await articlePaths(upstreamUrl, MAX_PAGES)) yield path;
  for (let word = 0; word < MAX_PAGES; word += 1) yield `/search/${Buffer.from(`测试词${word}`).toString('base64url')}/1`;
}

function full(figures: MemoryFigures): boolean {
  return figures.l1Evictions > 0 || figures.l1Bytes >= 0.97 * figures.l1MaxBytes;
}

export async function fillL1(redisUrl: string, l1Mb: number): Promise<MemoryFigures> {
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const prefix = `soakfill${process.pid}`;
  let portal: Running | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    portal = await startPortalProcess({ UPSTREAM_URL: upstream.url, REDIS_URL: redisUrl, CACHE_PREFIX: prefix, L1_CACHE_MAX_MB: String(l1Mb) });
    const base = portal.url;
    const pages = distinctPages(upstream.url);
    const asked: string[] = [];
    let failed = 0;
    let figures = await figuresOf(portal);
    console.log(`filling L1 (${l1Mb} MB): ${describeFigures(figures)}`);
    let lastReport = Date.now();
    while (!full(figures)) {
      const batch: string[] = [];
      for (let index = 0; index < CONCURRENCY * 8; index += 1) {
        const next = await pages.next();
        if (next.done) break;
        batch.push(next.value);
      }
      if (batch.length === 0) throw new Error(`ran out of pages before L1 was full: ${describeFigures(figures)}`);
      const statuses = await Promise.all(batch.map((path) => get(base + path, agent)));
      failed += statuses.filter((status) => status !== 200).length;
      asked.push(...batch);
      figures = await figuresOf(portal);
      if (Date.now() - lastReport > 10_000) {
        console.log(`${asked.length} pages: ${describeFigures(figures)}`);
        lastReport = Date.now();
      }
    }
    console.log(`L1 full after ${asked.length} pages (${failed} not 200): ${describeFigures(figures)}`);
    // Full, and kept full as readers keep it: half the clients re-read the last pages asked (what L1 holds now),
    // the other half go on down the long tail, so L1 evicts and refills all the while (the churn that fragments).
    const held = asked.slice(-Math.min(asked.length, 500));
    const until = Date.now() + SETTLE_SECONDS * 1000;
    let next = 0;
    const reread = async () => {
      while (Date.now() < until) await get(base + held[next++ % held.length]!, agent);
    };
    const tail = async () => {
      for (let page = await pages.next(); !page.done && Date.now() < until; page = await pages.next()) await get(base + page.value, agent);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => (index % 2 === 0 ? reread() : tail())));
    figures = await figuresOf(portal);
    console.log(`after ${SETTLE_SECONDS} s of re-reads and new pages while full: ${describeFigures(figures)}`);
    return figures;
  } finally {
    agent.destroy();
    await portal?.stop();
    await upstream.close();
    const client = createRedisClient(parseRedisTarget(redisUrl), { role: 'cli' });
    await client
      .connect()
      .then(async () => unlinkAll(client, await scanAll(client, `${prefix}:*`)))
      .catch((error: unknown) => console.error(`could not delete ${prefix}:*: ${String(error)}`))
      .finally(() => client.disconnect());
  }
}
