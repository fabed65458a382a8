/**
 * `npm run bench`: the cache against its ceiling, in one run on one machine, reported as ratios (absolute
 * numbers depend on the machine; ratios much less). Starts the reference content API, portals on the Redis at
 * REDIS_URL (default 127.0.0.1:6379, a fresh prefix, cleaned afterwards) and a bare node:http server that sends
 * the same cached page bytes, then loads each with autocannon. BENCH_SECONDS (default 5) per load.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { startReferenceApi } from './reference-api/server';
import { loadConfig } from '../server/config';
import { listen } from '../server/http-server';
import { createLogger } from '../server/logger';
import { createPortal } from '../server/portal';
import { announce } from '../server/cache/coherence';
import { createRedisClient } from '../server/redis/client';
import { scanAll, unlinkAll } from '../server/redis/commands';
import { parseRedisTarget } from '../server/redis/target';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = 50;

type Upstream = Awaited<ReturnType<typeof startReferenceApi>>;

async function startPortal(upstream: Upstream, prefix: string, env: Record<string, string> = {}) {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', CACHE_PREFIX: prefix, UPSTREAM_URL: upstream.url, REDIS_URL, LOG_LEVEL: 'silent', ...env });
  const portal = createPortal({ config, logger: createLogger('silent'), upstreamUrl: upstream.url });
  const server = await listen(portal, 0, '127.0.0.1', createLogger('silent'), 2000);
  const deadline = Date.now() + 5000;
  while (!portal.store.isAvailable() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return server;
}

function bareServer(body: Buffer): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}

async function load(url: string, headers: Record<string, string> = {}): Promise<{ rps: number; p99: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  return { rps: result.requests.average, p99: result.latency.p99 };
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; firstByteMs: number; cache: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
        const parts: Buffer[] = [];
        let firstByteMs = -1;
        res.on('data', (chunk: Buffer) => {
          if (firstByteMs < 0) firstByteMs = performance.now() - started;
          parts.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), firstByteMs, cache: String(res.headers['x-cache']) }));
      })
      .on('error', reject);
  });
}

async function main(): Promise<void> {
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  const rssBefore = process.memoryUsage().rss;
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const withL1 = await startPortal(upstream, prefix);
  const redisOnly = await startPortal(upstream, prefix, { L1_CACHE_MAX_MB: '0' });
  const rows: Array<[string, string, string]> = [];
  try {
    const path = '/home';
    await get(withL1.url + path);
    const cached = await get(withL1.url + path);
    const bare = await bareServer(cached.body);
    const ceiling = await load(bare.url);
    const l1 = await load(withL1.url + path);
    const fromRedis = await load(redisOnly.url + path);
    // Signed-in readers are rendered every time (data from cache): the cold-render rate of the renderer.
    const render = await load(withL1.url + path, { cookie: 'portal_session=bench-reader' });
    bare.close();
    rows.push(['bare node:http, same bytes', `${ceiling.rps.toFixed(0)} req/s, p99 ${ceiling.p99} ms`, '1.00× (ceiling)']);
    rows.push(['page HIT from L1', `${l1.rps.toFixed(0)} req/s, p99 ${l1.p99} ms`, `${(l1.rps / ceiling.rps).toFixed(2)}× (target ≥ 0.8)`]);
    rows.push(['page HIT from Redis (L1 off)', `${fromRedis.rps.toFixed(0)} req/s, p99 ${fromRedis.p99} ms`, `${(fromRedis.rps / ceiling.rps).toFixed(2)}× (target ≥ 0.5)`]);
    rows.push(['render per request (signed-in, data cached)', `${render.rps.toFixed(0)} pages/s`, `${(render.rps / ceiling.rps).toFixed(3)}×`]);

    // Streaming: hot news (a suspense block) takes 2 s; the shell must not wait for it.
    rows.push(await streamingRow(upstream, prefix));
    rows.push(await coldRow(upstream));
  } finally {
    await withL1.shutdown();
    await redisOnly.shutdown();
    await upstream.close();
    await clean(prefix);
  }
  const rssAfter = process.memoryUsage().rss;
  rows.push(['RSS of this process (3 servers)', `${(rssBefore / 1048576).toFixed(0)} MiB before → ${(rssAfter / 1048576).toFixed(0)} MiB after`, '']);
  printTable(rows);
}

async function streamingRow(upstream: Upstream, prefix: string): Promise<[string, string, string]> {
  const portal = await startPortal(upstream, `${prefix}s`);
  try {
    await get(`${portal.url}/detail/2728/33727`); // data other than hot news cached
    await clean(`${prefix}s`, ':page:');
    upstream.api.control.setLatency([{ path: '/list/3281/', ms: 2000 }]);
    await clean(`${prefix}s`, ':list:3281:');
    const res = await get(`${portal.url}/detail/2728/33727`, { cookie: 'portal_session=bench-reader' });
    upstream.api.control.reset();
    return ['first byte, page with a 2 s slow block', `${res.firstByteMs.toFixed(1)} ms (status ${res.status})`, 'target < 50 ms'];
  } finally {
    await portal.shutdown();
    await clean(`${prefix}s`);
  }
}

async function coldRow(upstream: Upstream): Promise<[string, string, string]> {
  const prefix = `benchcold${randomBytes(4).toString('hex')}`;
  const a = await startPortal(upstream, prefix);
  const b = await startPortal(upstream, prefix);
  try {
    upstream.api.control.reset();
    upstream.api.control.setLatency([{ path: '/', ms: 50 }]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 250 });
    await Promise.all(
      Array.from({ length: 500 }, (_, index) =>
        new Promise<void>((resolve, reject) => {
          http.get(`${index % 2 === 0 ? a.url : b.url}/detail/2728/33727`, { agent }, (res) => res.resume().on('end', () => resolve())).on('error', reject);
        }),
      ),
    );
    agent.destroy();
    const { byPath } = upstream.api.control.stats();
    const counts = Object.values(byPath);
    const worst = Math.max(...counts);
    return ['500 concurrent cold requests, 2 instances', `${counts.length} keys, at most ${worst} upstream call(s) per key`, 'target exactly 1'];
  } finally {
    upstream.api.control.reset();
    await a.shutdown();
    await b.shutdown();
    await clean(prefix);
  }
}

async function clean(prefix: string, containing = ''): Promise<void> {
  // Any REDIS_URL form (one server, Sentinel, cluster): scans every master, deletes slot by slot.
  const client = createRedisClient(parseRedisTarget(REDIS_URL), { role: 'cli' });
  try {
    await client.connect();
    const keys = (await scanAll(client, `${prefix}:*`)).filter((key) => key.includes(containing));
    await unlinkAll(client, keys);
    if (containing) await announce(client, prefix, { kind: 'evict', keys }, 'bench');
  } finally {
    client.disconnect();
  }
}

function printTable(rows: Array<[string, string, string]>): void {
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: [string, string, string]) => `| ${row.map((cell, index) => cell.padEnd(widths[index]!)).join(' | ')} |`;
  process.stdout.write(`${line(['measure', 'result', 'ratio / target'])}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
