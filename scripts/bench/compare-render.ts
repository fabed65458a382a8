/**
 * Render cost of two bundles side by side (not part of the bench; docs/benchmark.md): PORTAL_A and PORTAL_B (paths
 * of a dist/server/main.cjs, e.g. a build of the commit before a change and of the tree) on one reference API,
 * each with its own prefix, their data caches warmed; then in COMPARE_ROUNDS rounds, taking turns, signed-in
 * `/home` and detail renders (COMPARE_SECONDS each) and COMPARE_PAGES anonymous misses. Prints each bundle's
 * server CPU per page: on a busy machine, compare the two within one run. NODE_A, NODE_B: the node binary of each
 * (one bundle on two Nodes); PORTAL_B_ARGS: node flags for B;
 * COMPARE_GZIP=1: the signed-in renders ask for gzip, as browsers do (the compression middleware's work).
 */
import { startReferenceApi } from '../reference-api/server';
import { createRedisClient } from '../../server/redis/client';
import { parseRedisTarget } from '../../server/platform/redis-target';
import { loadFrom } from './processes';
import { articlePaths, bundlesToCompare, DETAIL, startPortalUnderTest, stopPortalUnderTest, warm, type PortalUnderTest } from './render-portals';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.COMPARE_SECONDS ?? 3);
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 3);
const PAGES = Number(process.env.COMPARE_PAGES ?? 100);
const ENCODING: Record<string, string> = process.env.COMPARE_GZIP ? { 'accept-encoding': 'gzip, deflate, br' } : {};

interface Total {
  micros: number;
  requests: number;
  /** The highest p99 latency of its loads, ms. */
  p99: number;
}

async function main(): Promise<void> {
  const { mainA, mainB, nodeA, nodeB } = bundlesToCompare();
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const client = createRedisClient(parseRedisTarget(REDIS_URL), { role: 'cli' });
  const portals: Array<[string, PortalUnderTest]> = [];
  const totals = new Map<string, Total>();
  const add = (key: string, load: { serverMicros: number; requests: number; p99: number }) => {
    const total = totals.get(key) ?? { micros: 0, requests: 0, p99: 0 };
    totals.set(key, { micros: total.micros + load.serverMicros, requests: total.requests + load.requests, p99: Math.max(total.p99, load.p99) });
  };
  try {
    portals.push(['A', await startPortalUnderTest(mainA, { upstreamUrl: upstream.url, redisUrl: REDIS_URL }, client, [], nodeA)]);
    const argsB = (process.env.PORTAL_B_ARGS ?? '').split(' ').filter(Boolean);
    portals.push(['B', await startPortalUnderTest(mainB, { upstreamUrl: upstream.url, redisUrl: REDIS_URL }, client, argsB, nodeB)]);
    const paths = await articlePaths(upstream.url, PAGES * ROUNDS);
    for (const [, portal] of portals) await warm(portal, ['/home', DETAIL, ...paths]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, portal] of round % 2 === 0 ? portals : [...portals].reverse()) {
        const pid = portal.child.pid!;
        for (const page of ['/home', DETAIL]) {
          const load = await loadFrom({ url: portal.url + page, connections: 10, seconds: SECONDS, headers: { ...portal.cookie, ...ENCODING } }, pid);
          add(`${name} ${page} (signed-in)`, load);
        }
        const load = await loadFrom({ url: portal.url, connections: 10, seconds: 0, paths: paths.slice(round * PAGES, (round + 1) * PAGES) }, pid);
        add(`${name} anonymous miss`, load);
      }
    }
    for (const [key, total] of [...totals].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`${key.padEnd(34)} ${(total.micros / total.requests / 1000).toFixed(2)} ms server CPU/page over ${total.requests}, p99 ${total.p99} ms`);
    }
  } finally {
    for (const [, portal] of portals) await stopPortalUnderTest(portal, client);
    client.disconnect();
    await upstream.close();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
