/**
 * A purge against the number of instances, and what a day of publishes leaves behind (issue 52). The instances are
 * stand-ins: each a Redis connection, a coherence bus (coherence.ts), an instance announcement (instances.ts) and a
 * Purges acknowledging as a portal's does (purges.ts acknowledge: its L1 purged, the acknowledgement written),
 * with a small L1 and no HTTP; what a purge costs the purger and Redis is the same for them as for portals. Counts
 * come from Redis (redis-counters.ts); times are the purge records' own (`ms`), under whatever load the machine has.
 */
import { randomBytes } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { announce, CacheBus } from '../../server/cache/coherence';
import { InstanceAnnouncer, announcedInstances } from '../../server/cache/instances';
import type { PurgeSelector } from '../../server/cache/invalidation';
import { MemoryStore } from '../../server/cache/memory-store';
import { PurgeClock } from '../../server/cache/purge-clock';
import { purgeLogKey } from '../../server/cache/purge-log';
import { Purges, type LocalPurge } from '../../server/cache/purges';
import { historyKey } from '../../server/cache/purge-record';
import { SIGNATURE_TOLERANCE_S } from '../../server/cache/purge-request';
import { RedisStore } from '../../server/cache/redis-store';
import { purgeInProcess } from '../../server/cache/tiered-store';
import { createRedisClient, type RedisClient } from '../../server/redis/client';
import { scanAll } from '../../server/redis/commands';
import { parseRedisTarget } from '../../server/platform/redis-target';
import { commandList, countersOf, deltaOf, formatCount, memoryOfKeys, type RoundTripProxy } from './redis-counters';

type Row = [string, string, string];

const KB = 1024;
const INSTANCE_COUNTS = (process.env.BENCH_CAPACITY_INSTANCES ?? '2,4,8,16,32').split(',').map(Number);
const PURGES_PER_COUNT = Number(process.env.BENCH_CAPACITY_PURGES ?? 10);
const DAY_PUBLISHES = Number(process.env.BENCH_CAPACITY_PUBLISHES ?? 5000);

export function connect(url: string): RedisClient {
  const client = createRedisClient(parseRedisTarget(url), { role: 'portal', commandTimeoutMs: 10_000 });
  client.on('error', () => undefined);
  return client;
}

export async function ready(client: RedisClient): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve) => client.once('ready', () => resolve()));
}

/** An instance's L1 purge (tiered-store.ts purgeLocal), on a MemoryStore of its own. */
function purgeL1(l1: MemoryStore, prefix: string, selectors: readonly PurgeSelector[], build: string): Promise<LocalPurge> {
  return purgeInProcess(l1, selectors, { prefix, buildId: build });
}

interface StandIn {
  bus: CacheBus;
  stop(): Promise<void>;
}

async function startStandIn(url: string, prefix: string, index: number): Promise<StandIn> {
  const client = connect(url);
  await ready(client);
  const id = `stand-in-${index}`;
  const l1 = new MemoryStore(16 * 1024 * 1024);
  const purges = new Purges({
    store: new RedisStore({ client }),
    prefix,
    client,
    self: { id, purgeLocal: (selectors, build) => purgeL1(l1, prefix, selectors, build) },
  });
  const bus = new CacheBus({
    client,
    prefix,
    onEvent: (event) => {
      if (event.kind === 'purge') void purges.acknowledge(event.purge).catch(() => undefined);
    },
    onResubscribed: () => undefined,
  });
  const announcer = new InstanceAnnouncer({ client, prefix, record: { id, url: `http://10.0.0.${index + 1}:8080`, build: 'bench' }, onError: () => undefined });
  announcer.start();
  return {
    bus,
    stop: async () => {
      await announcer.stop();
      bus.close();
      purges.close();
      client.disconnect();
    },
  };
}

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Hard tag purges made by one purger (as the hook's instance makes them) with 2 to 32 stand-ins listening: per
 * purge, the commands Redis ran, the bytes it sent (PUBLISH reaches every subscriber), the purger's round trips,
 * and its time to every acknowledgement (loaded machine: see `load`).
 */
export async function fanOutRows(redisUrl: string, proxy: RoundTripProxy, admin: RedisClient, load: () => string): Promise<Row[]> {
  const prefix = 'fan';
  const client = connect(proxy.url);
  await ready(client);
  const purger = new Purges({ store: new RedisStore({ client }), prefix, client, self: { id: 'purger', purgeLocal: async () => ({ entries: 0, keys: [] }) } });
  const standIns: StandIn[] = [];
  const rows: Row[] = [];
  let baseline: { bytes: number; ms: number } | null = null;
  try {
    for (const count of INSTANCE_COUNTS) {
      while (standIns.length < count) standIns.push(await startStandIn(redisUrl, prefix, standIns.length));
      await until(() => standIns.every((standIn) => standIn.bus.isSubscribed()), 'stand-ins subscribed');
      await until(async () => (await announcedInstances(admin, prefix)).length === count, `${count} stand-ins announced`);
      const purge = (round: number) =>
        purger.run([{ by: 'tag', tag: `article:${round + 1}` }], {
          tags: [`article:${round + 1}`],
          urls: [],
          soft: false,
          who: 'bench',
          source: 'cli',
          what: 'bench',
        });
      for (let round = 0; round < 2; round += 1) await purge(round);
      const before = await countersOf(admin);
      proxy.reset();
      const times: number[] = [];
      for (let round = 0; round < PURGES_PER_COUNT; round += 1) {
        const record = await purge(round);
        if (record.instances.missing.length > 0) throw new Error(`${count} instances: ${record.instances.missing.length} did not acknowledge`);
        times.push(record.ms);
      }
      const trips = proxy.trips() / PURGES_PER_COUNT;
      const delta = deltaOf(before, await countersOf(admin));
      const evictBytes = await evictBytesOut(admin, client, prefix);
      const sorted = times.sort((left, right) => left - right);
      const bytes = delta.netOutput / PURGES_PER_COUNT;
      baseline ??= { bytes, ms: percentile(sorted, 50) };
      rows.push([
        `hard tag purge, ${count} instances (stand-ins) acknowledging`,
        `${formatCount(delta.commands / PURGES_PER_COUNT)} commands (${commandList(delta, PURGES_PER_COUNT)}), ${(bytes / KB).toFixed(1)} KiB out of Redis, ${formatCount(trips)} purger round trips; p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms (${load()})`,
        `bytes out ${(bytes / baseline.bytes).toFixed(2)}×, p50 ${(percentile(sorted, 50) / Math.max(1, baseline.ms)).toFixed(2)}× the ${INSTANCE_COUNTS[0]} instances'; a stored page's evict announcement ${evictBytes.toFixed(0)} B out`,
      ]);
    }
  } finally {
    for (const standIn of standIns) await standIn.stop();
    purger.close();
    client.disconnect();
  }
  return rows;
}

/** Bytes Redis sends for one evict announcement (what every store of an entry publishes: tiered-store.ts set). */
async function evictBytesOut(admin: RedisClient, client: RedisClient, prefix: string): Promise<number> {
  const announcements = 100;
  const key = `${prefix}:0123456789ab:page:0:/detail/2728/1000000`;
  const before = await countersOf(admin);
  for (let sent = 0; sent < announcements; sent += 1) await announce(client, prefix, { kind: 'evict', keys: [key] }, 'stand-in-0');
  return deltaOf(before, await countersOf(admin)).netOutput / announcements;
}

/**
 * A day of publishes (DAY_PUBLISHES hook purges, each with its signature kept as the hook keeps it) through one
 * instance: the purge log (a stream, MAXLEN ~ PURGE_LOG_LENGTH), the history (a list of HISTORY_LENGTH records), the
 * used signatures (a key each, for twice the signature tolerance); and a purge clock holding them all in process.
 */
export async function dayOfPublishesRows(admin: RedisClient, redisUrl: string): Promise<Row[]> {
  const prefix = 'day';
  const client = connect(redisUrl);
  await ready(client);
  const purges = new Purges({ store: new RedisStore({ client }), prefix, client, self: { id: 'hook', purgeLocal: async () => ({ entries: 0, keys: [] }) } });
  try {
    for (let publish = 0; publish < DAY_PUBLISHES; publish += 1) {
      const value = randomBytes(32).toString('hex');
      const keepSeconds = 2 * SIGNATURE_TOLERANCE_S;
      await purges.firstUse(value, keepSeconds);
      const tags = [`article:${100_000 + publish}`];
      const signature = { value, until: Date.now() + keepSeconds * 1000 };
      await purges.purge({ tags, urls: [], soft: true, signature, event: `cms-${publish}` }, 'cms (10.0.0.7)', 'hook');
    }
    const clockBytes = clockBytesPerPurge(DAY_PUBLISHES);
    const log = await memoryOfKeys(admin, [purgeLogKey(prefix)]);
    const history = await memoryOfKeys(admin, [historyKey(prefix)]);
    const signatures = await scanAll(admin, `${prefix}:purge:signature:*`);
    const signatureBytes = await memoryOfKeys(admin, signatures);
    const logLength = await admin.xlen(purgeLogKey(prefix));
    const historyLength = await admin.llen(historyKey(prefix));
    return [
      [
        `purge log after ${DAY_PUBLISHES} publishes (stream, MAXLEN ~ 10,000)`,
        `${(log / KB / KB).toFixed(2)} MiB for ${logLength} entries, ${(log / logLength).toFixed(0)} B each`,
        'bounded: at most about 10,000 entries whatever the rate',
      ],
      [
        `purge history after ${DAY_PUBLISHES} publishes (list, newest 1,000)`,
        `${(history / KB).toFixed(0)} KiB for ${historyLength} records, ${(history / historyLength).toFixed(0)} B each`,
        'bounded: 1,000 records',
      ],
      [
        'used hook signatures (a key each, kept 600 s)',
        `${signatures.length} held, ${(signatureBytes / Math.max(1, signatures.length)).toFixed(0)} B each`,
        'grows with the publish rate × 600 s',
      ],
      [
        `purge clock, ${DAY_PUBLISHES} purges noted at once (in process, V8 heap)`,
        `${clockBytes.toFixed(0)} B a noted purge (${((clockBytes * DAY_PUBLISHES) / KB / KB).toFixed(2)} MiB)`,
        'bounded: the last 5 min, at most 10,000',
      ],
    ];
  } finally {
    purges.close();
    client.disconnect();
  }
}

/** V8 heap a noted purge holds: `count` hook purges (one tag each) noted on a clock, the heap read collected. */
function clockBytesPerPurge(count: number): number {
  const gc = collector();
  const clock = new PurgeClock();
  gc();
  const before = v8.getHeapStatistics().used_heap_size;
  for (let publish = 0; publish < count; publish += 1) clock.note({ selectors: [{ by: 'tag', tag: `article:${100_000 + publish}` }], build: '*', soft: true });
  gc();
  const bytes = (v8.getHeapStatistics().used_heap_size - before) / count;
  if (clock.version !== count) throw new Error('the purge clock did not note every purge');
  return bytes;
}

/** V8's collector, asked for by the bench (heap figures before and after are read collected). */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
