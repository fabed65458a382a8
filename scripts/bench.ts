/**
 * `npm run bench`: the cache against its ceiling, in one run on one machine, reported as ratios (absolute
 * numbers depend on the machine; ratios much less). Starts the reference content API, portals on the Redis at
 * REDIS_URL (default 127.0.0.1:6379, a fresh prefix, cleaned afterwards) and bare node:http servers that send
 * the same cached page bytes with the same headers (identity, and gzip), then loads each with autocannon.
 * BENCH_SECONDS (default 6) per load, split into BENCH_ROUNDS (default 3) rounds that take turns, so a burst
 * of load from elsewhere on the machine does not land on one measure only.
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
import { RedisSecretStore } from '../server/auth/secret-store';
import { Sessions } from '../server/auth/sessions';
import { encodeReaderCookie } from '../shared/reader-cookie';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
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

/** Headers node:http adds on its own (or that describe the connection, not the page). */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The ceiling: a response captured from the portal, sent as it is (body and headers) with no work per request. */
function bareServer(captured: Fetched): Promise<{ url: string; close: () => void }> {
  const headers = Object.entries(captured.headers).filter(([name]) => !CONNECTION_HEADERS.has(name));
  const server = http.createServer((_req, res) => {
    res.writeHead(200, headers.flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : [[name, String(value)]])));
    res.end(captured.body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}

interface Target {
  url: string;
  headers?: Record<string, string>;
}

interface Load {
  rps: number;
  /** The worst round's p99. */
  p99: number;
  /**
   * CPU time of this process (client and servers alike) per request: steadier than the rate when other work
   * shares the machine, since it does not count time spent waiting for a core.
   */
  cpuMicros: number;
}

/** Every target in turn, ROUNDS times; each target's rate is its requests over its own seconds of load. */
async function loadInTurns(targets: Target[]): Promise<Load[]> {
  const totals = targets.map(() => ({ requests: 0, seconds: 0, p99: 0, cpuMicros: 0 }));
  const seconds = Math.max(1, Math.round(SECONDS / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, target] of targets.entries()) {
      const cpu = process.cpuUsage();
      const result = await autocannon({ url: target.url, connections: CONNECTIONS, duration: seconds, headers: target.headers ?? {} });
      const used = process.cpuUsage(cpu);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      const total = totals[index]!;
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.p99 = Math.max(total.p99, result.latency.p99);
      total.cpuMicros += used.user + used.system;
    }
  }
  return totals.map((total) => ({ rps: total.requests / total.seconds, p99: total.p99, cpuMicros: total.cpuMicros / total.requests }));
}

interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  firstByteMs: number;
  cache: string;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
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
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), firstByteMs, cache: String(res.headers['x-cache']) }),
        );
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
    const gzip = { 'accept-encoding': 'gzip, deflate, br' };
    await get(withL1.url + path);
    const cached = await get(withL1.url + path);
    const cachedGzip = await get(withL1.url + path, gzip);
    if (cached.cache !== 'HIT' || cachedGzip.headers['content-encoding'] !== 'gzip') throw new Error('the page was not cached');
    await get(redisOnly.url + path);
    const bare = await bareServer(cached);
    const bareGzip = await bareServer(cachedGzip);
    const [ceiling, l1, fromRedis, gzipCeiling, l1Gzip] = await loadInTurns([
      { url: bare.url },
      { url: withL1.url + path },
      { url: redisOnly.url + path },
      { url: bareGzip.url, headers: gzip },
      { url: withL1.url + path, headers: gzip },
    ]);
    bare.close();
    bareGzip.close();
    // Streaming: hot news (a suspense block) takes 2 s; the shell must not wait for it. Measured before the
    // render load, which leaves its last renders still running when it stops.
    const streaming = await streamingRow(upstream, prefix);
    const cold = await coldRow(upstream);
    // A session without the reader cookie is rendered every time (data from cache): the renderer's rate.
    const session = await benchSession(prefix);
    // A signed-in browser (session and reader cookies) is answered from the same entry as everyone. Measured
    // before the render load, which leaves renders running when it stops.
    const readerCookie = encodeReaderCookie({ user_id: 1, nickname: '压测读者', avatar: '' });
    const [signedInHit] = await loadInTurns([{ url: withL1.url + path, headers: { cookie: `portal_session=${session}; portal_reader=${readerCookie}` } }]);
    const [render] = await loadInTurns([{ url: withL1.url + path, headers: { cookie: `portal_session=${session}` } }]);
    const rate = (load: Load) => `${load.rps.toFixed(0)} req/s, p99 ${load.p99} ms, ${load.cpuMicros.toFixed(0)} µs CPU/req`;
    const ratio = (load: Load, of: Load) => `${(load.rps / of.rps).toFixed(2)}×`;
    rows.push([`bare node:http, same bytes (${(cached.body.length / 1024).toFixed(0)} KiB)`, rate(ceiling!), '1.00× (ceiling)']);
    rows.push(['page HIT from L1', rate(l1!), `${ratio(l1!, ceiling!)} (target ≥ 0.8)`]);
    rows.push(['page HIT from Redis (L1 off)', rate(fromRedis!), `${ratio(fromRedis!, ceiling!)} (target ≥ 0.5)`]);
    rows.push([`bare node:http, same gzip bytes (${(cachedGzip.body.length / 1024).toFixed(0)} KiB)`, rate(gzipCeiling!), '1.00× (gzip ceiling)']);
    rows.push(['page HIT from L1, gzip', rate(l1Gzip!), ratio(l1Gzip!, gzipCeiling!)]);
    rows.push(['page HIT, signed-in reader', rate(signedInHit!), `${ratio(signedInHit!, l1!)} of L1 HIT (target ≥ 0.7)`]);
    rows.push(['render per request (signed-in, data cached)', `${render!.rps.toFixed(0)} pages/s`, `${(render!.rps / ceiling!.rps).toFixed(3)}×`]);
    rows.push(streaming, cold);
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

/** A signed-in reader's session, written where the portals of the prefix look sessions up. */
async function benchSession(prefix: string): Promise<string> {
  const client = createRedisClient(parseRedisTarget(REDIS_URL), { role: 'cli' });
  try {
    const sessions = new Sessions(new RedisSecretStore(client, `${prefix}:session`), new RedisSecretStore(client, `${prefix}:login`), 3600);
    return await sessions.create({ user_id: 1, nickname: '压测读者', avatar: '' }, 'bench-token');
  } finally {
    client.disconnect();
  }
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
