/**
 * The cache's store, chosen by the configuration: the in-process LRU without REDIS_URL; Redis with the coherence
 * bus otherwise, and an L1 in front of it unless L1_CACHE_MAX_MB is 0. One Redis client serves the store, and the
 * bus opens its own subscriber from it.
 */
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { RedisClient } from '../redis/client';
import type { OutageLog } from '../redis/outage-log';
import { createPortalRedisClient } from '../redis/portal-client';
import { RedisStall } from '../redis/stall';
import { parseRedisTarget, redactRedisUrl } from '../platform/redis-target';
import { CacheBus, type OperatorPurge } from './coherence';
import { MemoryStore } from './memory-store';
import type { PurgeClock } from './purge-clock';
import type { PurgeAnnouncement, Purges } from './purges';
import { RedisStore, type CommandObserver } from './redis-store';
import type { CacheStore } from './store';
import { TieredStore, type OutagePolicy } from './tiered-store';

export interface Stores {
  store: CacheStore;
  redis: RedisStore | null;
  /** Present when an in-process tier sits in front of Redis. */
  tiered: TieredStore | null;
  bus: CacheBus | null;
}

/** What the stores report as they run, bound to the portal's metrics once those exist. */
export interface StoreObservers {
  onCommand: CommandObserver;
  onInvalidation: (kind: 'evict' | 'policy' | 'audit' | 'purge', keys: number) => void;
  /** Another instance (or the CLI) purged: drop this instance's L1 copies and acknowledge. */
  onPurge: (announcement: PurgeAnnouncement) => void;
  /** The CLI says how its purge went: counted by the one instance that claims it. */
  onOperatorPurge: (purge: OperatorPurge, client: RedisClient) => void;
  /** The purge log as the bus tells it (purges.ts catchUp): heard up to an entry, stopped hearing, hearing again. */
  purgeLog: { heard: (logId: string) => void; lost: () => void; resubscribed: (client: RedisClient) => Promise<boolean> };
  /** The outage policy in force (the run-time policy, once it exists). */
  outage: () => OutagePolicy;
  /** The log of the cache Redis's outages. */
  outageLog: (redis: string, consequence: string, describe: () => Record<string, unknown>) => OutageLog;
  /** The purges this instance has noted: L1 is not refilled with what one of them covered (tiered-store.ts). */
  purgeClock: PurgeClock;
}

/** Tries to read the purge log on a reconnect, each after the command client is ready or this long. */
const CATCH_UP_TRIES = 3;
const READY_WAIT_MS = 2000;

/**
 * The purge log read and applied after a reconnect. The subscriber connection is often back before the command
 * client (which refuses commands until it is), and a Redis just back may be slow: giving up empties L1 (every page
 * rendered again at once), so each try waits for the client first.
 */
export async function catchUpRetried(purges: Purges, client: RedisClient): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await untilReady(client, READY_WAIT_MS);
      return await purges.catchUp();
    } catch (error) {
      if (attempt >= CATCH_UP_TRIES) throw error;
    }
  }
}

function untilReady(client: RedisClient, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.once('ready', done);
  });
}

export function createStores(config: Config, logger: Logger, onPolicyChange: () => void, observers: StoreObservers): Stores {
  const l1Bytes = config.L1_CACHE_MAX_MB * 1024 * 1024;
  if (!config.REDIS_URL) return { store: new MemoryStore(l1Bytes), redis: null, tiered: null, bus: null };
  let tiered: TieredStore | null = null;
  const outageLog = observers.outageLog(
    redactRedisUrl(config.REDIS_URL),
    'serving from L1 (short TTLs past the outage window) or uncached until it returns',
    () => (tiered ? { cacheMode: tiered.mode() } : {}),
  );
  const redis = createRedisStore(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS, logger, observers.onCommand, outageLog);
  logger.info({ redis: redactRedisUrl(config.REDIS_URL), mode: parseRedisTarget(config.REDIS_URL).mode }, 'cache on redis');
  const bus = new CacheBus({
    client: redis.client,
    prefix: config.CACHE_PREFIX,
    onEvent: (event) => {
      observers.onInvalidation(event.kind, event.kind === 'evict' ? event.keys.length : 0);
      if (event.kind === 'evict') void tiered?.evictLocal(event.keys);
      if (event.kind === 'policy') onPolicyChange();
      if (event.kind === 'purge') observers.onPurge(event.purge);
      if (event.kind !== 'audit') return;
      logger.info({ audit: event.action }, `cache operator ${event.action.who}: ${event.action.what} (${event.action.entries} entries)`);
      if (event.action.purge) observers.onOperatorPurge(event.action.purge, redis.client);
    },
    // Announcements sent while unsubscribed were missed: the purge log says which were purges, applied to L1 (and
    // the edges purged again for them). L1 is kept, so a reconnect is no capacity cliff; it is emptied only when the
    // log cannot say what was missed (unread, or trimmed past this instance's place).
    onResubscribed: () =>
      observers.purgeLog
        .resubscribed(redis.client)
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'purge log not read after reconnecting: emptying L1');
          return false;
        })
        .then((complete) => (complete ? undefined : tiered?.clearLocal())),
    onLogged: (logId) => observers.purgeLog.heard(logId),
    onLost: () => observers.purgeLog.lost(),
  });
  if (l1Bytes === 0) return { store: redis, redis, tiered: null, bus };
  tiered = new TieredStore({
    l1: new MemoryStore(l1Bytes),
    l2: redis,
    unsubscribedSince: () => bus.unsubscribedSince(),
    outage: observers.outage,
    announceEvict: (keys) => void bus.publish({ kind: 'evict', keys }),
    purges: observers.purgeClock,
  });
  return { store: tiered, redis, tiered, bus };
}

function createRedisStore(url: string, commandTimeoutMs: number, logger: Logger, onCommand: CommandObserver, outageLog: OutageLog): RedisStore {
  const client = createPortalRedisClient(url, commandTimeoutMs, logger, outageLog);
  // Connected but not answering: the cache goes on without Redis until it answers (server/redis/stall.ts). A
  // stall is an outage like a lost connection: the same log lines, portal_redis_outage_seconds and its alerts.
  const stall = new RedisStall(client, {
    onChange: (stalled) => {
      if (stalled) outageLog.failed('stalled: a command timed out; the cache reads and writes without it until it answers');
      else outageLog.recovered();
    },
  });
  return new RedisStore({ client, onCommand, stall });
}
