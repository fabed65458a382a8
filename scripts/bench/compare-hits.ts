/**
 * The cached hit of several bundles side by side (not part of the bench; docs/benchmark.md, "Where a cached hit's
 * CPU goes"): COMPARE_PORTALS=name=path,… (each a main.cjs beside dist/server/main.cjs, so it finds the same
 * client build: a build of the commit before a change, a variant altered by hand for a measure), each with L1 on
 * its own prefix, and with COMPARE_REDIS=1 also with L1 off; bare node:http replaying the first portal's `/home`
 * (identity and gzip, and the gzip bytes read from Redis with one GET) as the ceilings. COMPARE_ROUNDS rounds,
 * each target loaded COMPARE_SECONDS after a second of warm-up, in turn, the order reversed every other round
 * (COMPARE_IDENTITY_ONLY=1: the identity rows alone).
 * Prints each target's server CPU per request and its ratio to its ceiling in the same run, per round and over
 * all rounds: on a shared machine, read the ratios and compare the bundles within one run.
 * `node scripts/run-ts.mjs scripts/bench/compare-hits.ts`; needs `npm run build` and Redis at REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startReferenceApi } from '../reference-api/server';
import { createRedisClient } from '../../server/redis/client';
import { scanAll, unlinkAll } from '../../server/redis/commands';
import { parseRedisTarget } from '../../server/platform/redis-target';
import { PROJECT_ROOT } from '../../server/render/assets';
import { loadFrom, startBareServer, startPortalProcess, type LoadSpec, type Running } from './processes';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.COMPARE_SECONDS ?? 3);
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 4);
const CONNECTIONS = 50;
/** COMPARE_IDENTITY_ONLY=1: only the identity hits (and their ceiling), for more rounds in the same time. */
const IDENTITY_ONLY = Boolean(process.env.COMPARE_IDENTITY_ONLY);
const GZIP = { 'accept-encoding': 'gzip' };
/** Headers node:http adds on its own (or that describe the connection, not the page), as the bench leaves them out. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Target {
  label: string;
  /** The label of the ceiling this target's ratio is taken against (none for a ceiling). */
  ceiling?: string;
  spec: LoadSpec;
  server: Running;
}

interface Captured {
  body: Buffer;
  headers: Array<[string, string]>;
}

/** The response as sent (node:http: fetch would decode the gzip body), with the headers the bench replays. */
function capture(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => {
          if (res.headers['x-cache'] !== 'HIT') reject(new Error(`${url} is not a HIT`));
          const replayed: Array<[string, string]> = [];
          for (let index = 0; index < res.rawHeaders.length; index += 2) {
            const name = res.rawHeaders[index]!;
            if (!CONNECTION_HEADERS.has(name.toLowerCase())) replayed.push([name, res.rawHeaders[index + 1]!]);
          }
          resolve({ body: Buffer.concat(parts), headers: replayed });
        });
      })
      .on('error', reject);
  });
}

/** The first HIT of `url`: a page is stored just after its first answer ends, so the first ones may be MISSes. */
async function firstHit(url: string, headers: Record<string, string>): Promise<Captured> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await capture(url, headers);
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function portalsOf(setting: string | undefined): Array<[string, string]> {
  const entries = (setting ?? `tree=${path.join(PROJECT_ROOT, 'dist/server/main.cjs')}`).split(',').map((entry): [string, string] => {
    const [name, file] = entry.split('=');
    if (!name || !file) throw new Error(`COMPARE_PORTALS: "${entry}" is not name=path`);
    readFileSync(file);
    return [name, path.resolve(file)];
  });
  return entries;
}

async function main(): Promise<void> {
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const prefixes: string[] = [];
  const running: Running[] = [];
  const targets: Target[] = [];
  try {
    for (const [name, main] of portalsOf(process.env.COMPARE_PORTALS)) {
      const prefix = `hitcmp${randomBytes(4).toString('hex')}`;
      prefixes.push(prefix);
      const env = { CACHE_PREFIX: prefix, UPSTREAM_URL: upstream.url, REDIS_URL };
      const withL1 = await startPortalProcess(env, [], main);
      running.push(withL1);
      if (targets.length === 0) {
        const identity = await firstHit(`${withL1.url}/home`, {});
        const gzip = await firstHit(`${withL1.url}/home`, GZIP);
        const bare = await startBareServer(identity.body, identity.headers);
        const bareGzip = await startBareServer(gzip.body, gzip.headers);
        running.push(bare, bareGzip);
        targets.push({ label: 'bare', spec: { url: bare.url, connections: CONNECTIONS, seconds: 0 }, server: bare });
        if (!IDENTITY_ONLY)
          targets.push({ label: 'bare gzip', spec: { url: bareGzip.url, connections: CONNECTIONS, seconds: 0, headers: GZIP }, server: bareGzip });
        if (process.env.COMPARE_REDIS) {
          const bareRedis = await startBareServer(gzip.body, gzip.headers, { url: REDIS_URL, key: `${prefix}:bare-gzip` });
          running.push(bareRedis);
          targets.push({ label: 'bare redis gzip', spec: { url: bareRedis.url, connections: CONNECTIONS, seconds: 0, headers: GZIP }, server: bareRedis });
        }
      }
      await firstHit(`${withL1.url}/home`, GZIP);
      targets.push({ label: `${name} l1`, ceiling: 'bare', spec: { url: `${withL1.url}/home`, connections: CONNECTIONS, seconds: 0 }, server: withL1 });
      if (!IDENTITY_ONLY)
        targets.push({
          label: `${name} l1 gzip`,
          ceiling: 'bare gzip',
          spec: { url: `${withL1.url}/home`, connections: CONNECTIONS, seconds: 0, headers: GZIP },
          server: withL1,
        });
      if (process.env.COMPARE_REDIS) {
        const redisOnly = await startPortalProcess({ ...env, L1_CACHE_MAX_MB: '0' }, [], main);
        running.push(redisOnly);
        await firstHit(`${redisOnly.url}/home`, GZIP);
        targets.push({
          label: `${name} redis gzip`,
          ceiling: 'bare redis gzip',
          spec: { url: `${redisOnly.url}/home`, connections: CONNECTIONS, seconds: 0, headers: GZIP },
          server: redisOnly,
        });
      }
    }
    const totals = new Map<string, { micros: number; requests: number }>();
    const ratios = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      const perRound = new Map<string, number>();
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        await loadFrom({ ...target.spec, seconds: 1 }, target.server.pid);
        const load = await loadFrom({ ...target.spec, seconds: SECONDS }, target.server.pid);
        const total = totals.get(target.label) ?? { micros: 0, requests: 0 };
        totals.set(target.label, { micros: total.micros + load.serverMicros, requests: total.requests + load.requests });
        perRound.set(target.label, load.serverMicros / load.requests);
      }
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      console.log(`round ${round + 1} (load average ${load})`);
      print(targets, (label) => perRound.get(label)!);
      for (const target of targets)
        if (target.ceiling) ratios.set(target.label, [...(ratios.get(target.label) ?? []), perRound.get(target.ceiling)! / perRound.get(target.label)!]);
    }
    console.log("all rounds (the ratio of the totals; in brackets the median and range of the rounds' ratios)");
    print(targets, (label) => totals.get(label)!.micros / totals.get(label)!.requests, ratios);
  } finally {
    for (const server of running.reverse()) await server.stop();
    await upstream.close();
    const client = createRedisClient(parseRedisTarget(REDIS_URL), { role: 'cli' });
    try {
      await client.connect();
      for (const prefix of prefixes) await unlinkAll(client, await scanAll(client, `${prefix}:*`));
    } finally {
      client.disconnect();
    }
  }
}

function print(targets: readonly Target[], microsOf: (label: string) => number, ratios?: Map<string, number[]>): void {
  for (const target of targets) {
    const micros = microsOf(target.label);
    const ratio = target.ceiling ? `  ${(microsOf(target.ceiling) / micros).toFixed(2)}× ${target.ceiling}` : '';
    const spread = ratios?.get(target.label);
    const rounds = spread ? `  [${spreadOf(spread)}]` : '';
    console.log(`  ${target.label.padEnd(28)} ${micros.toFixed(0).padStart(5)} µs/req${ratio}${rounds}`);
  }
}

function spreadOf(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return `${median.toFixed(2)}, ${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
