/**
 * `npm run bench`: the portal against its ceilings and its floor, in one run on one machine, as ratios (absolute
 * numbers depend on the machine; ratios much less). Portals from the production bundle, bare node:http servers
 * and nginx sending the same bytes, and the load generator each run in their own process, so every rate is read
 * as the server's own CPU time per request (/proc/<pid>/stat); React's renderToString of the same page is the
 * floor. Loads take turns in rounds after a warm-up, so a burst from elsewhere does not land on one measure only.
 * BENCH_SECONDS, BENCH_ROUNDS and BENCH_ONLY (hits, miss, publish, outage, outage-window, images, capacity): docs/benchmark.md "Benchmark".
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startReferenceApi } from './reference-api/server';
import { loadConfig } from '../server/platform/config';
import { listen } from '../server/http-server';
import { createLogger } from '../server/platform/logger';
import { createPortal } from '../server/portal';
import { announce } from '../server/cache/coherence';
import { createRedisClient } from '../server/redis/client';
import { scanAll, unlinkAll } from '../server/redis/commands';
import { parseRedisTarget } from '../server/platform/redis-target';
import { RedisSecretStore } from '../server/auth/secret-store';
import { Sessions } from '../server/auth/sessions';
import { PROJECT_ROOT } from '../server/render/assets';
import { READER_COOKIE } from '../shared/reader-cookie';
import { loadFrom, startBareServer, startNginx, startPortalProcess, startRedisServer, type LoadSpec, type Running } from './bench/processes';
import { renderFloor, type Floor } from './bench/render-floor';
import { articlePaths, DETAIL } from './bench/render-portals';
import { publishToVisibleRows } from './bench/publish-to-visible';
import { outageExpiryRows } from './bench/outage-expiry';
import { redisReturnRows } from './bench/redis-return';
import { capacityRows } from './bench/capacity';
import { imageRows } from './bench/image-rows';
import { runStoppingChildren } from './bench/children';
import { redisServerMissing, varnishMissing } from './bench/requirements';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WARM_UP_SECONDS = 1;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = 50;
/** Renders take milliseconds: fewer connections keep their latency under autocannon's timeout. */
const RENDER_CONNECTIONS = 10;
const MISS_PAGES = Number(process.env.BENCH_MISS_PAGES ?? 300);
const HITS_ONLY = process.env.BENCH_ONLY === 'hits';
const MISS_ONLY = process.env.BENCH_ONLY === 'miss';
const PUBLISH_ONLY = process.env.BENCH_ONLY === 'publish';
const OUTAGE_ONLY = process.env.BENCH_ONLY === 'outage';
const OUTAGE_WINDOW_ONLY = process.env.BENCH_ONLY === 'outage-window';
const IMAGES_ONLY = process.env.BENCH_ONLY === 'images';
const CAPACITY_ONLY = process.env.BENCH_ONLY === 'capacity';
if (process.env.BENCH_ONLY !== undefined && !HITS_ONLY && !MISS_ONLY && !PUBLISH_ONLY && !OUTAGE_ONLY && !OUTAGE_WINDOW_ONLY && !IMAGES_ONLY && !CAPACITY_ONLY)
  throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY}: only "hits", "miss", "publish", "outage", "outage-window", "images" and "capacity" are known`);
const KB = 1024;
const HTML_TARGETS = { home: 75 * KB, detail: 56 * KB, gzipped: 20 * KB };

type Upstream = Awaited<ReturnType<typeof startReferenceApi>>;
type Row = [string, string, string];

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

function replayHeaders(captured: Fetched): Array<[string, string]> {
  return Object.entries(captured.headers)
    .filter(([name]) => !CONNECTION_HEADERS.has(name))
    .flatMap(([name, value]) => (Array.isArray(value) ? value.map((v): [string, string] => [name, v]) : [[name, String(value)] as [string, string]]));
}

interface Target {
  label: string;
  spec: LoadSpec;
  server: Running;
}

interface Load {
  rps: number;
  /** The worst round's p99. */
  p99: number;
  /** The server's own CPU time per request (its process and children), µs. */
  cpuMicros: number;
}

/**
 * Every target in turn, ROUNDS times; rates over each target's own seconds, CPU over its own requests. Each turn
 * starts with a second of the same load, unmeasured: a server's first load pays V8 compiling its request path
 * (the portal's hit path: 172 µs a request in a fresh portal's first four seconds, 94–108 after), and a turn that
 * follows another process's cost a fifth more than the one after it on the same process (the anonymous L1 hit
 * after bare node:http against the signed-in hit after it: 122–124 against 101–107 µs), so without it the
 * order of the rows would be in their ratios.
 */
async function loadInTurns(targets: Target[]): Promise<Load[]> {
  const totals = targets.map(() => ({ requests: 0, seconds: 0, p99: 0, cpuMicros: 0 }));
  const seconds = Math.max(1, Math.round(SECONDS / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, target] of targets.entries()) {
      await loadFrom({ ...target.spec, seconds: WARM_UP_SECONDS }, target.server.pid);
      const result = await loadFrom({ ...target.spec, seconds }, target.server.pid);
      const total = totals[index]!;
      total.requests += result.requests;
      total.seconds += result.seconds;
      total.p99 = Math.max(total.p99, result.p99);
      total.cpuMicros += result.serverMicros;
    }
  }
  return totals.map((total) => ({ rps: total.requests / total.seconds, p99: total.p99, cpuMicros: total.cpuMicros / Math.max(1, total.requests) }));
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

/** A client taking gzip only (the gzip rows), and a browser's header (brotli, where the portal stores it). */
const GZIP = { 'accept-encoding': 'gzip' };
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** Cached page (identity, gzip, and brotli where the tree stores it), checked to be a HIT. */
async function cachedPage(portal: Running, path: string): Promise<{ identity: Fetched; gzip: Fetched; br: Fetched | null }> {
  await get(portal.url + path);
  const identity = await get(portal.url + path);
  const gzip = await get(portal.url + path, GZIP);
  const br = await get(portal.url + path, BROWSER);
  if (identity.cache !== 'HIT' || gzip.headers['content-encoding'] !== 'gzip') throw new Error(`${path} was not cached`);
  return { identity, gzip, br: br.headers['content-encoding'] === 'br' ? br : null };
}

/** µs per request as "N µs"; a ratio of CPU costs (b's cost over a's: how many of a fit in b's time). */
const micros = (load: Load) => `${load.cpuMicros.toFixed(0)} µs`;
const rate = (load: Load) => `${load.rps.toFixed(0)} req/s, p99 ${load.p99} ms, ${micros(load)} server CPU/req`;
const cpuRatio = (of: { cpuMicros: number }, load: { cpuMicros: number }) => `${(of.cpuMicros / load.cpuMicros).toFixed(3)}×`;

async function main(): Promise<void> {
  // The portal as deployed: the production bundle, built now so it is this tree's.
  execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (PUBLISH_ONLY) {
    printTable(await publishRows());
    return;
  }
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const common = { CACHE_PREFIX: prefix, UPSTREAM_URL: upstream.url, REDIS_URL };
  const running: Array<{ stop(): Promise<void> }> = [];
  const rows: Row[] = [];
  try {
    if (CAPACITY_ONLY) {
      rows.push(...(await capacityOrMissing(upstream.url)));
      printTable(rows);
      return;
    }
    if (IMAGES_ONLY) {
      rows.push(...(await imageRows(common, SECONDS)));
      printTable(rows);
      return;
    }
    if (OUTAGE_WINDOW_ONLY) {
      rows.push(...(await outageExpiryRows(common, upstream.url)));
      printTable(rows);
      return;
    }
    if (OUTAGE_ONLY) {
      rows.push(...(await redisOutageRows(common)), ...(await outageExpiryRows(common, upstream.url)), ...(await redisReturnRows(common, upstream.url)));
      printTable(rows);
      return;
    }
    const withL1 = await startPortalProcess(common);
    running.push(withL1);
    const redisOnly = await startPortalProcess({ ...common, L1_CACHE_MAX_MB: '0' });
    running.push(redisOnly);
    if (MISS_ONLY) {
      rows.push(await anonymousMissRow(upstream, withL1, prefix));
      printTable(rows);
      return;
    }
    const home = await cachedPage(withL1, '/home');
    const detail = await cachedPage(withL1, DETAIL);
    await get(redisOnly.url + '/home');
    const gzip = GZIP;
    const bareHome = await startBareServer(home.identity.body, replayHeaders(home.identity));
    const bareHomeGzip = await startBareServer(home.gzip.body, replayHeaders(home.gzip));
    const bareDetail = await startBareServer(detail.identity.body, replayHeaders(detail.identity));
    const bareRedisGzip = await startBareServer(home.gzip.body, replayHeaders(home.gzip), { url: REDIS_URL, key: `${prefix}:bare-gzip` });
    running.push(bareHome, bareHomeGzip, bareDetail, bareRedisGzip);
    const nginx = await startNginx({ home: { identity: home.identity.body, gzip: home.gzip.body } });
    if ('pid' in nginx) running.push(nginx);

    // Signed-in readers: rendered every time, data cached (the first request cached it).
    const cookie = { cookie: `portal_session=${await benchSession(prefix)}` };
    const signedHome = await get(withL1.url + '/home', cookie);
    const signedDetail = await get(withL1.url + DETAIL, cookie);
    if (signedHome.cache !== 'PASS' || signedDetail.cache !== 'PASS') throw new Error('signed-in pages were not rendered per request');
    // With the reader cookie that first render set, the same reader's pages come from the shared entry.
    const signedInHit = { cookie: `${cookie.cookie}; ${readerCookieOf(signedHome)}` };
    if ((await get(withL1.url + '/home', signedInHit)).cache !== 'HIT')
      throw new Error('a signed-in reader with the reader cookie was not served the shared page');
    // Anonymous misses, data cached: article pages fetched once signed in (data cached, no page stored).
    const missPaths = HITS_ONLY ? [] : await articlePaths(upstream.url, MISS_PAGES);
    for (const missPath of missPaths) await get(withL1.url + missPath, cookie);

    const hitTargets: Target[] = [
      { label: 'bare', spec: { url: bareHome.url, connections: CONNECTIONS, seconds: 0 }, server: bareHome },
      { label: 'l1', spec: { url: withL1.url + '/home', connections: CONNECTIONS, seconds: 0 }, server: withL1 },
      { label: 'l1 signed-in', spec: { url: withL1.url + '/home', connections: CONNECTIONS, seconds: 0, headers: signedInHit }, server: withL1 },
      { label: 'redis', spec: { url: redisOnly.url + '/home', connections: CONNECTIONS, seconds: 0 }, server: redisOnly },
      { label: 'bare gzip', spec: { url: bareHomeGzip.url, connections: CONNECTIONS, seconds: 0, headers: gzip }, server: bareHomeGzip },
      { label: 'l1 gzip', spec: { url: withL1.url + '/home', connections: CONNECTIONS, seconds: 0, headers: gzip }, server: withL1 },
      { label: 'redis gzip', spec: { url: redisOnly.url + '/home', connections: CONNECTIONS, seconds: 0, headers: gzip }, server: redisOnly },
      { label: 'bare redis gzip', spec: { url: bareRedisGzip.url, connections: CONNECTIONS, seconds: 0, headers: gzip }, server: bareRedisGzip },
      { label: 'bare detail', spec: { url: bareDetail.url, connections: CONNECTIONS, seconds: 0 }, server: bareDetail },
    ];
    if ('pid' in nginx) {
      hitTargets.push(
        { label: 'nginx', spec: { url: `${nginx.url}/home`, connections: CONNECTIONS, seconds: 0 }, server: nginx },
        { label: 'nginx gzip', spec: { url: `${nginx.url}/home`, connections: CONNECTIONS, seconds: 0, headers: gzip }, server: nginx },
      );
    }
    const hits = await loadInTurns(hitTargets);
    const hit = (label: string) => hits[hitTargets.findIndex((target) => target.label === label)];

    const ceiling = hit('bare')!;
    const nginxHit = hit('nginx');
    rows.push([`bare node:http, same bytes (${(home.identity.body.length / KB).toFixed(0)} KiB /home)`, rate(ceiling), '1.00× (ceiling)']);
    if (nginxHit) rows.push(['nginx, same bytes as a file (1 worker)', rate(nginxHit), `${cpuRatio(ceiling, nginxHit)} of bare's CPU cost`]);
    else if ('missing' in nginx) rows.push(['nginx, same bytes as a file', nginx.missing, '']);
    const l1 = hit('l1')!;
    rows.push([
      'page HIT from L1',
      rate(l1),
      `${cpuRatio(ceiling, l1)} (target ≥ 0.75)${nginxHit ? `; ${(l1.cpuMicros / nginxHit.cpuMicros).toFixed(1)}× nginx (target ≤ 3)` : ''}`,
    ]);
    const signedIn = hit('l1 signed-in')!;
    rows.push([
      'page HIT from L1, signed-in reader (session + reader cookie)',
      rate(signedIn),
      `${cpuRatio(l1, signedIn)} of the anonymous L1 HIT (target ≥ 0.7)`,
    ]);
    const redis = hit('redis')!;
    rows.push(['page HIT from Redis (L1 off)', rate(redis), `${cpuRatio(ceiling, redis)} (target ≥ 0.5)`]);
    const gzipCeiling = hit('bare gzip')!;
    const nginxGzip = hit('nginx gzip');
    rows.push([`bare node:http, same gzip bytes (${(home.gzip.body.length / KB).toFixed(0)} KiB)`, rate(gzipCeiling), '1.00× (gzip ceiling)']);
    if (nginxGzip) rows.push(['nginx, same gzip bytes (gzip_static)', rate(nginxGzip), `${cpuRatio(gzipCeiling, nginxGzip)}`]);
    const l1Gzip = hit('l1 gzip')!;
    rows.push([
      'page HIT from L1, gzip',
      rate(l1Gzip),
      `${cpuRatio(gzipCeiling, l1Gzip)}${nginxGzip ? `; ${(l1Gzip.cpuMicros / nginxGzip.cpuMicros).toFixed(1)}× nginx` : ''}`,
    ]);
    const bareRedis = hit('bare redis gzip')!;
    rows.push(['bare node:http, same gzip bytes read from Redis (one GET each)', rate(bareRedis), `${cpuRatio(gzipCeiling, bareRedis)} (round-trip floor)`]);
    const redisGzip = hit('redis gzip')!;
    rows.push([
      'page HIT from Redis (L1 off), gzip',
      rate(redisGzip),
      `${cpuRatio(gzipCeiling, redisGzip)}; ${cpuRatio(bareRedis, redisGzip)} of the round-trip floor (target ≥ 0.75)`,
    ]);
    const detailCeiling = hit('bare detail')!;
    rows.push([`bare node:http, ${DETAIL} bytes (${(detail.identity.body.length / KB).toFixed(0)} KiB)`, rate(detailCeiling), '1.00× (detail ceiling)']);
    if (HITS_ONLY) {
      rows.push(htmlSizeRow('/home', home, HTML_TARGETS.home), htmlSizeRow(DETAIL, detail, HTML_TARGETS.detail));
      printTable(rows);
      return;
    }
    const [renderHome, renderDetail] = await loadInTurns([
      { label: 'home', spec: { url: withL1.url + '/home', connections: RENDER_CONNECTIONS, seconds: 0, headers: cookie }, server: withL1 },
      { label: 'detail', spec: { url: withL1.url + DETAIL, connections: RENDER_CONNECTIONS, seconds: 0, headers: cookie }, server: withL1 },
    ]);
    const missResult = await loadFrom({ url: withL1.url, connections: RENDER_CONNECTIONS, seconds: 0, paths: missPaths }, withL1.pid);
    const miss: Load = { rps: missResult.requests / missResult.seconds, p99: missResult.p99, cpuMicros: missResult.serverMicros / missResult.requests };
    const floorSeconds = Math.max(2, SECONDS / 2);
    const floorHome = await renderFloor(signedHome.body.toString('utf8'), floorSeconds);
    const floorDetail = await renderFloor(signedDetail.body.toString('utf8'), floorSeconds);
    const floorRow = (label: string, floor: Floor): Row => [
      label,
      `${floor.perSecond.toFixed(0)} renders/s, ${floor.cpuMicros.toFixed(0)} µs CPU/render`,
      'floor',
    ];
    const streamedHome = await renderFloor(signedHome.body.toString('utf8'), floorSeconds, 'stream');
    const streamedDetail = await renderFloor(signedDetail.body.toString('utf8'), floorSeconds, 'stream');
    rows.push(floorRow('React floor: renderToString of /home (same state)', floorHome));
    rows.push(floorRow(`React floor: renderToString of ${DETAIL}`, floorDetail));
    rows.push(floorRow('React streamed floor: renderDocument of /home', streamedHome));
    rows.push(floorRow(`React streamed floor: renderDocument of ${DETAIL}`, streamedDetail));
    const renderRow = (label: string, load: Load, floor: Floor, streamed: Floor, of: Load, target: number): Row => [
      label,
      `${load.rps.toFixed(0)} pages/s, ${(load.cpuMicros / 1000).toFixed(1)} ms server CPU/page`,
      `${cpuRatio(floor, load)} floor (target ≥ 0.6), ${cpuRatio(streamed, load)} streamed floor, ${cpuRatio(of, load)} ceiling (target ≥ ${target})`,
    ];
    rows.push(renderRow('render per request /home (signed-in, data cached)', renderHome!, floorHome, streamedHome, ceiling, 0.08));
    rows.push(renderRow(`render per request ${DETAIL} (signed-in, data cached)`, renderDetail!, floorDetail, streamedDetail, detailCeiling, 0.15));
    rows.push(
      renderRow(
        `render per request, anonymous MISS (${missPaths.length} articles, data cached, stored)`,
        miss,
        floorDetail,
        streamedDetail,
        detailCeiling,
        0.15,
      ),
    );
    rows.push(htmlSizeRow('/home', home, HTML_TARGETS.home), htmlSizeRow(DETAIL, detail, HTML_TARGETS.detail));
    rows.push(await streamingRow(upstream, prefix), await coldRow(upstream), ...(await redisOutageRows(common)));
    rows.push(...(await outageExpiryRows(common, upstream.url)), ...(await redisReturnRows(common, upstream.url)), ...(await publishRows()));
    rows.push(...(await imageRows(common, SECONDS)));
  } finally {
    for (const server of running.reverse()) await server.stop();
    await upstream.close();
    await clean(prefix);
  }
  printTable(rows);
}

/**
 * Anonymous misses alone (BENCH_ONLY=miss): MISS_PAGES articles, their data cached by a signed-in visit first,
 * each rendered, streamed and stored once; the server's CPU per page, compression of the stored forms included
 * (it runs on the thread pool of the same process).
 */
async function anonymousMissRow(upstream: Upstream, portal: Running, prefix: string): Promise<Row> {
  const cookie = { cookie: `portal_session=${await benchSession(prefix)}` };
  const paths = await articlePaths(upstream.url, MISS_PAGES);
  for (const missPath of paths) await get(portal.url + missPath, cookie);
  const result = await loadFrom({ url: portal.url, connections: RENDER_CONNECTIONS, seconds: 0, paths }, portal.pid);
  const stored = await get(portal.url + paths[0]!);
  if (stored.cache !== 'HIT') throw new Error(`${paths[0]} was not stored by its MISS`);
  return [
    `render per request, anonymous MISS (${paths.length} articles, data cached, stored)`,
    `${(result.requests / result.seconds).toFixed(0)} pages/s, ${(result.serverMicros / result.requests / 1000).toFixed(2)} ms server CPU/page`,
    'compare with the other tree, run in turn',
  ];
}

/** The page's text, its gzip and its brotli as the portal sends them (brotli only where the tree stores it). */
function htmlSizeRow(label: string, page: { identity: Fetched; gzip: Fetched; br: Fetched | null }, target: number): Row {
  const body = page.identity.body;
  const gzipped = page.gzip.body.length;
  const within = body.length <= target && gzipped <= HTML_TARGETS.gzipped;
  const brotli = page.br ? `, ${(page.br.body.length / KB).toFixed(1)} KiB brotli (${((page.br.body.length / gzipped) * 100).toFixed(0)}% of gzip)` : '';
  return [
    `HTML size ${label}`,
    `${(body.length / KB).toFixed(1)} KiB, ${(gzipped / KB).toFixed(1)} KiB gzipped${brotli}`,
    `target ≤ ${target / KB} / ${HTML_TARGETS.gzipped / KB} KiB${within ? '' : ' (over)'}`,
  ];
}

/** The reader cookie (`portal_reader=…`) from the Set-Cookie of a signed-in reader's first render. */
function readerCookieOf(page: Fetched): string {
  const lines = page.headers['set-cookie'] ?? [];
  const line = lines.find((entry) => entry.startsWith(`${READER_COOKIE}=`));
  if (!line) throw new Error(`the signed-in render set no ${READER_COOKIE} cookie`);
  return line.split(';')[0]!;
}

/**
 * L1 hits through a Redis outage: a portal on a Redis of the bench's own, /home measured with Redis up, then with
 * that Redis stopped and the outage past its window (shortened to 1 s: the portal reporting it degraded and its L1
 * in mode outage-short-ttl, what any outage longer than L1_OUTAGE_SERVE_S comes to). loadFrom fails the bench on
 * any non-2xx or error.
 */
async function redisOutageRows(common: Record<string, string>): Promise<Row[]> {
  const missing = await redisServerMissing();
  if (missing) return [['page from L1, own Redis stopped past the outage window', `skipped: ${missing}`, '']];
  const redis = await startRedisServer();
  let portal: Running | null = null;
  try {
    portal = await startPortalProcess({ ...common, REDIS_URL: redis.url, CACHE_PREFIX: `${common.CACHE_PREFIX}o`, L1_OUTAGE_SERVE_S: '1' });
    await cachedPage(portal, '/home');
    const spec = { url: portal.url + '/home', connections: CONNECTIONS, seconds: Math.max(1, Math.round(SECONDS / ROUNDS)) };
    const up = await loadFrom(spec, portal.pid);
    await redis.stop();
    await untilDegraded(portal.url);
    const down = await loadFrom(spec, portal.pid);
    const perSecond = (load: { requests: number; seconds: number }) => load.requests / load.seconds;
    const asLoad = (load: Awaited<ReturnType<typeof loadFrom>>): Load => ({
      rps: perSecond(load),
      p99: load.p99,
      cpuMicros: load.serverMicros / Math.max(1, load.requests),
    });
    return [
      ['page HIT from L1, own Redis up', rate(asLoad(up)), 'outage baseline'],
      [
        'page from L1, that Redis stopped past the outage window (short TTLs)',
        rate(asLoad(down)),
        `${(perSecond(down) / perSecond(up)).toFixed(2)}× the rate with Redis up (target ≥ 0.5), 0 failed`,
      ],
    ];
  } finally {
    await portal?.stop();
    await redis.stop();
  }
}

/** The publish-to-visible row, or one line saying what to install when varnishd (with xkey) or redis-server cannot be had. */
async function publishRows(): Promise<Row[]> {
  const missing = (await varnishMissing()) ?? (await redisServerMissing());
  if (missing) return [['publish to visible (2 instances + Varnish)', `skipped: ${missing}`, '']];
  return publishToVisibleRows();
}

/** The capacity rows (bench/capacity.ts), or one line saying what to install when redis-server cannot be had. */
async function capacityOrMissing(upstreamUrl: string): Promise<Row[]> {
  const missing = await redisServerMissing();
  if (missing) return [['capacity rows (a Redis of their own)', `skipped: ${missing}`, '']];
  return capacityRows(upstreamUrl);
}

/** Until /readyz says degraded with L1 past the outage window (tiered-store.ts's mode outage-short-ttl). */
async function untilDegraded(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const status: { status?: string; checks?: { l1?: string } } = await fetch(`${url}/readyz`).then(
      (res) => res.json() as Promise<{ status?: string; checks?: { l1?: string } }>,
      () => ({ status: 'unreachable' }),
    );
    if (status.status === 'degraded' && status.checks?.l1 === 'outage-short-ttl') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the portal did not report Redis down past the outage window within 30 s');
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

async function streamingRow(upstream: Upstream, prefix: string): Promise<Row> {
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

async function coldRow(upstream: Upstream): Promise<Row> {
  const prefix = `benchcold${randomBytes(4).toString('hex')}`;
  const a = await startPortal(upstream, prefix);
  const b = await startPortal(upstream, prefix);
  try {
    upstream.api.control.reset();
    upstream.api.control.setLatency([{ path: '/', ms: 50 }]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 250 });
    await Promise.all(
      Array.from(
        { length: 500 },
        (_, index) =>
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

function printTable(rows: Row[]): void {
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: Row) => `| ${row.map((cell, index) => cell.padEnd(widths[index]!)).join(' | ')} |`;
  process.stdout.write(`${line(['measure', 'result', 'ratio / target'])}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

void runStoppingChildren('bench', main);
