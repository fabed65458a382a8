/**
 * Where a cached hit's CPU goes: the production bundle under `node --cpu-prof`, `/home` warmed, then loaded from
 * another process (load.mjs), one portal per case (L1 hit, Redis hit with L1 off; identity and gzip). Prints
 * each case's server CPU per request and the functions with the most self time (GC and idle apart).
 * `node scripts/run-ts.mjs scripts/bench/profile-hits.ts [seconds] [case…]`; cases: l1, l1-gzip, redis, redis-gzip,
 * and bare (node:http replaying the portal's `/home`, headers and body, as the bench's ceiling: what Node itself
 * spends on the same response). PROFILE_MAIN: another bundle beside dist/server/main.cjs (a variant to compare).
 * Needs `npm run build` first and Redis at REDIS_URL (a fresh prefix, removed afterwards).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startReferenceApi } from '../reference-api/server';
import { createRedisClient } from '../../server/redis/client';
import { scanAll, unlinkAll } from '../../server/redis/commands';
import { parseRedisTarget } from '../../server/platform/redis-target';
import { loadFrom, startBareServer, startPortalProcess, type Running } from './processes';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const GZIP = { 'accept-encoding': 'gzip, deflate, br' };
const CASES: Record<string, { env: Record<string, string>; headers: Record<string, string> }> = {
  l1: { env: {}, headers: {} },
  'l1-gzip': { env: {}, headers: GZIP },
  redis: { env: { L1_CACHE_MAX_MB: '0' }, headers: {} },
  'redis-gzip': { env: { L1_CACHE_MAX_MB: '0' }, headers: GZIP },
  bare: { env: {}, headers: {} },
};
/** Headers node:http adds on its own (or that describe the connection, not the page), as the bench leaves them out. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds on the monotonic clock V8's profiler stamps its samples with. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function nameOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`;
}

/**
 * Self and total time per function (name and place) over the samples taken in [from, to], as shares of the busy
 * samples (idle and "(program)" apart); a function's total counts it once per sample however deep it recurses.
 */
function times(profile: Profile, from: number, to: number): Record<'self' | 'total' | 'callers', Array<[string, number]>> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const callers = new Map<string, number>();
  const watched = (process.env.PROFILE_CALLERS ?? '').split(',').filter(Boolean);
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    const node = byId.get(id)!;
    if (at < from || at > to || node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') return;
    busy += 1;
    self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + 1);
    if (watched.some((name) => nameOf(node).startsWith(name))) {
      const chain: string[] = [];
      for (let walk = parent.get(id); walk !== undefined && chain.length < 6; walk = parent.get(walk)) chain.push(nameOf(byId.get(walk)!));
      const key = `${nameOf(node)} ← ${chain.join(' ← ')}`;
      callers.set(key, (callers.get(key) ?? 0) + 1);
    }
    const seen = new Set<string>();
    for (let walk: number | undefined = id; walk !== undefined; walk = parent.get(walk)) {
      const name = nameOf(byId.get(walk)!);
      if (!seen.has(name)) total.set(name, (total.get(name) ?? 0) + 1);
      seen.add(name);
    }
  });
  const ranked = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).map(([name, n]): [string, number] => [name, n / Math.max(1, busy)]);
  return { self: ranked(self), total: ranked(total), callers: ranked(callers) };
}

async function profileCase(name: string, seconds: number, common: Record<string, string>): Promise<void> {
  const { env, headers } = CASES[name]!;
  const directory = mkdtempSync(path.join(tmpdir(), 'hit-profile-'));
  const window = { from: 0, to: 0 };
  let microsPerRequest = 0;
  const profiling = ['--cpu-prof', `--cpu-prof-dir=${directory}`, `--cpu-prof-interval=${process.env.PROFILE_INTERVAL_US ?? 250}`];
  const main = process.env.PROFILE_MAIN ? path.resolve(process.env.PROFILE_MAIN) : undefined;
  let portal: Running = await startPortalProcess({ ...common, ...env }, name === 'bare' ? [] : profiling, main);
  try {
    for (let i = 0; i < 3; i++) await fetch(`${portal.url}/home`, { headers }).then((res) => res.arrayBuffer());
    // fetch asks for br by default and decodes it: the captured body must be the one load.mjs gets.
    const check = await fetch(`${portal.url}/home`, { headers: { 'accept-encoding': 'identity', ...headers } });
    const body = Buffer.from(await check.arrayBuffer());
    if (check.headers.get('x-cache') !== 'HIT') throw new Error(`${name}: /home is not a HIT`);
    if (name === 'bare') {
      const replayed: Array<[string, string]> = [];
      check.headers.forEach((value, header) => {
        if (!CONNECTION_HEADERS.has(header)) replayed.push([header, value]);
      });
      await portal.stop();
      portal = await startBareServer(body, replayed, undefined, profiling);
    }
    await loadFrom({ url: `${portal.url}/home`, connections: 50, seconds: 2, headers }, portal.pid);
    window.from = monotonicMicros();
    const load = await loadFrom({ url: `${portal.url}/home`, connections: 50, seconds, headers }, portal.pid);
    window.to = monotonicMicros();
    microsPerRequest = load.serverMicros / load.requests;
    console.log(`\n== ${name}: ${(load.requests / load.seconds).toFixed(0)} req/s, ${(load.serverMicros / load.requests).toFixed(0)} µs server CPU/req`);
  } finally {
    await portal.stop();
  }
  const file = readdirSync(directory).find((entry) => entry.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${name}: no profile written`);
  const profile = JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as Profile;
  const top = Number(process.env.PROFILE_TOP ?? 30);
  const { self, total, callers } = times(profile, window.from, window.to);
  // PROFILE_JSON=file: each function's self time as µs of server CPU a request, to set two runs side by side.
  if (process.env.PROFILE_JSON) {
    const perRequest = Object.fromEntries(self.map(([fn, share]) => [fn, share * microsPerRequest]));
    writeFileSync(`${process.env.PROFILE_JSON}.${name}.json`, JSON.stringify({ microsPerRequest, self: perRequest }, null, 1));
  }
  const print = (rows: Array<[string, number]>) => rows.slice(0, top).forEach(([fn, share]) => console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${fn}`));
  console.log('-- self');
  print(self);
  console.log("-- total (the portal's own functions)");
  print(total.filter(([fn]) => !process.env.PROFILE_OWN || fn.includes('main.cjs')));
  if (callers.length) console.log('-- callers (PROFILE_CALLERS)');
  print(callers);
  if (process.env.PROFILE_KEEP) console.log(`profile: ${path.join(directory, file)}`);
  else rmSync(directory, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const [secondsArg, ...names] = process.argv.slice(2);
  const seconds = Number(secondsArg ?? 5);
  const prefix = `hitprof${randomBytes(4).toString('hex')}`;
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  try {
    for (const name of names.length ? names : Object.keys(CASES)) {
      await profileCase(name, seconds, { CACHE_PREFIX: prefix, UPSTREAM_URL: upstream.url, REDIS_URL });
    }
  } finally {
    await upstream.close();
    const client = createRedisClient(parseRedisTarget(REDIS_URL), { role: 'cli' });
    try {
      await client.connect();
      await unlinkAll(client, await scanAll(client, `${prefix}:*`));
    } finally {
      client.disconnect();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
