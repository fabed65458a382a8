/**
 * The cache subsystem of one portal, made by `createCaches()`: the store (create-stores.ts), purges carried out
 * everywhere, the run-time policy, the data cache and the page cache over the store, and this instance's
 * announcement for `portal-cache inspect`. The rest of the portal reads through what it returns.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { siteOfKey, type Metrics } from '../platform/metrics';
import type { RedisClient } from '../redis/client';
import { RedisHealth } from '../redis/health';
import type { OutageLogs } from '../redis/outage-log';
import { Cache, type CacheEvents } from './cache';
import { edgePurgerOf, type EdgePurger } from './edge-purge';
import { InstanceAnnouncer, internalUrlOf, type Announcement } from './instances';
import type { KeySpace } from './keys';
import { MemoryStore } from './memory-store';
import { PageCache } from './page-cache';
import { PeerPurger } from './peer-purge';
import { PurgeClock } from './purge-clock';
import { ACK_TIMEOUT_MS, claimCount } from './purge-acks';
import { Purges, type PurgesOptions } from './purges';
import { RedisLock } from './redis-lock';
import type { CommandObserver, RedisStore } from './redis-store';
import { recordRefreshError } from './refresh-errors';
import { RuntimePolicy } from './runtime-policy';
import { catchUpRetried, createStores, type StoreObservers, type Stores } from './create-stores';
import type { OutagePolicy, TieredStore } from './tiered-store';

/** How this instance drops its own copies for a purge (purges.ts's `self.purgeLocal`). */
type LocalPurger = NonNullable<PurgesOptions['self']>['purgeLocal'];

export interface CacheDeps {
  config: Config;
  logger: Logger;
  /** The client build id: the keys' build segment and this instance's build. */
  build: string;
  /** The portal's metrics, made after the caches (they read the stores): null until then, when nothing reports yet. */
  metrics: () => Metrics | null;
  outages: OutageLogs;
  /** How often the instance's announcement is refreshed (instances.ts); tests shorten it. */
  announceEveryMs?: number;
}

export interface PortalCaches extends Stores {
  /** The in-process tier: in front of Redis, or the only store; null when Redis alone holds entries. */
  l1: TieredStore | MemoryStore | null;
  /** Null without Redis. */
  health: RedisHealth | null;
  /** This instance as the coherence bus and the purge acknowledgements name it. */
  instance: { id: string; build: string };
  edgePurger: EdgePurger | null;
  purges: Purges;
  /** The cache policy in force (defaults plus operator overrides from Redis). */
  policy: RuntimePolicy;
  keys: KeySpace;
  cache: Cache;
  pageCache: PageCache;
  /** The server listens at `url`: with Redis, announce this instance there for `portal-cache inspect`. */
  announce(url: string): void;
  close(): Promise<void>;
}

/** Made after the stores, which call back into them: no callback comes before createPortal has returned. */
interface MadeAfterStores {
  purges: Purges | null;
  policy: RuntimePolicy | null;
}

export function createCaches(deps: CacheDeps): PortalCaches {
  const { config, logger } = deps;
  warnWithoutPublishHook(config, logger);
  const late: MadeAfterStores = { purges: null, policy: null };
  const onCommand: CommandObserver = (op, ms, outcome) => deps.metrics()?.redisCommand(op, ms / 1000, outcome);
  const outageDefaults: OutagePolicy = { window: config.L1_OUTAGE_SERVE_S, ttl: config.L1_OUTAGE_TTL_S };
  const purgeClock = new PurgeClock();
  const stores = createStores(config, logger, () => void late.policy?.reload(), { ...storeObservers(deps, late, onCommand, outageDefaults), purgeClock });
  const { store, redis, tiered } = stores;
  const instance = { id: stores.bus?.instanceId ?? randomUUID(), build: deps.build };
  const edgePurger = edgePurgerOf(config);
  // Purged here: L1's copies, then the data cache's writes under way (cache.ts put), each ended or undone.
  const purgeLocal = localPurge(config, stores.tiered, () => cache.writesSettled());
  // Without Redis there is one instance and no outage to bridge.
  const peers = redis ? new PeerPurger({ selfId: instance.id, peerUrls: config.PEER_URLS, token: config.INTERNAL_TOKEN, timeoutMs: ACK_TIMEOUT_MS }) : null;
  const purges = (late.purges = createPurges(config, logger, stores, { id: instance.id, purgeLocal }, { edges: edgePurger, peers }, purgeClock));
  const health = redis ? new RedisHealth(redis.client) : null;
  const policy = (late.policy = createPolicy(config, logger, redis?.client ?? null, outageDefaults));
  const keys = { prefix: config.CACHE_PREFIX, buildId: deps.build };
  const lock = createLock(config, redis, onCommand);
  const cache = new Cache(store, dataCacheEvents(deps, redis?.client ?? null), lock, purgeClock);
  let announcer: InstanceAnnouncer | null = null;
  return {
    ...stores,
    l1: tiered ?? (store instanceof MemoryStore ? store : null),
    health,
    instance,
    edgePurger,
    purges,
    policy,
    keys,
    cache,
    pageCache: new PageCache(cache, keys, lock),
    announce: (url) => {
      if (!redis || announcer) return;
      announcer = announceInstance(deps, redis.client, instance, url, (instances) => peers?.rememberInstances(instances));
    },
    close: async () => {
      health?.stop();
      await announcer?.stop();
      policy.stop();
      purges.close();
      stores.bus?.close();
      await store.close();
    },
  };
}

/**
 * A shared Redis is a deployment with instances behind a balancer: there, a CMS publish that gets a 404 is missed
 * silently, so say it once (a single local portal without Redis has no CMS to hear).
 */
function warnWithoutPublishHook(config: Config, logger: Logger): void {
  if (!config.REDIS_URL || config.PURGE_SECRET) return;
  logger.warn(
    { publishHook: 'off' },
    'publish hook off: PURGE_SECRET is not set, so CMS publishes are refused (404) and corrections wait for the cache TTLs (docs/publish-hook.md)',
  );
}

function storeObservers(deps: CacheDeps, late: MadeAfterStores, onCommand: CommandObserver, outageDefaults: OutagePolicy): Omit<StoreObservers, 'purgeClock'> {
  const { config, logger, metrics } = deps;
  return {
    onCommand,
    onInvalidation: (kind, keys) => metrics()?.invalidationReceived(kind, keys),
    outage: () => late.policy?.outage() ?? outageDefaults,
    outageLog: (redis, consequence, describe) => deps.outages.open(redis, consequence, 'cache', describe),
    onPurge: (announcement) =>
      void late.purges?.acknowledge(announcement).catch((error: unknown) => logger.warn({ err: error, purge: announcement.id }, 'purge not acknowledged')),
    onOperatorPurge: (purge, client) =>
      void claimCount(client, config.CACHE_PREFIX, purge.id).then(
        (mine) => mine && metrics()?.purgeFinished('cli', purge),
        () => undefined,
      ),
    purgeLog: {
      heard: (logId) => late.purges?.heard(logId),
      lost: () => late.purges?.stoppedListening(),
      resubscribed: async (client) => (late.purges ? catchUpRetried(late.purges, client) : false),
    },
  };
}

/** This instance's part of a purge: its L1 copies dropped, then the writes under way settled (each ends in place, or undone). */
function localPurge(config: Config, tiered: TieredStore | null, writesSettled: () => Promise<void>): LocalPurger {
  return async (selectors, build) => {
    const dropped = tiered ? await tiered.purgeLocal(selectors, { prefix: config.CACHE_PREFIX, buildId: build }) : { entries: 0, keys: [] };
    await writesSettled();
    return dropped;
  };
}

function createPurges(
  config: Config,
  logger: Logger,
  stores: Stores,
  self: PurgesOptions['self'],
  { edges, peers }: { edges: EdgePurger | null; peers: PeerPurger | null },
  clock: PurgeClock,
): Purges {
  return new Purges({
    peers,
    store: stores.store,
    prefix: config.CACHE_PREFIX,
    client: stores.redis?.client ?? null,
    self,
    edges,
    onEdgeFollowUp: (acks) => {
      for (const ack of acks)
        if (!ack.ok) logger.warn({ edge: ack.edge, reason: ack.reason }, `edge ${ack.edge} did not acknowledge a follow-up purge: ${ack.reason}`);
    },
    clock,
    onReplay: (record, error) => {
      if (record) logger.info({ purge: record }, `purge held while Redis was down replayed: ${record.what}`);
      else logger.warn({ err: error }, 'held purges not replayed yet (Redis did not answer); trying again');
    },
  });
}

function createPolicy(config: Config, logger: Logger, client: RedisClient | null, outageDefaults: OutagePolicy): RuntimePolicy {
  const policy = new RuntimePolicy(
    client,
    config.CACHE_PREFIX,
    (error) => logger.warn({ err: error }, 'cache policy could not be read; keeping the last one'),
    outageDefaults,
  );
  policy.start();
  return policy;
}

function createLock(config: Config, redis: RedisStore | null, onCommand: CommandObserver): RedisLock | null {
  if (!redis) return null;
  // A live holder's load is one upstream call, sent at most twice (http-client.ts): waiting longer than that and a
  // lock timeout more is waiting on something that is not a load (docs/cache.md, "Whatever Redis holds").
  const lockMaxWaitMs = config.CACHE_LOCK_TIMEOUT_MS + 2 * config.UPSTREAM_TIMEOUT_MS;
  return new RedisLock(redis.client, config.CACHE_LOCK_TIMEOUT_MS, undefined, onCommand, lockMaxWaitMs, redis.stall);
}

/** What the data cache reports: counted by the metrics, logged, and failed refreshes kept for `portal-cache inspect`. */
function dataCacheEvents(deps: CacheDeps, client: RedisClient | null): CacheEvents {
  const { logger, metrics } = deps;
  // Best effort: a Redis that cannot take it has bigger news in the log already.
  const noteRefreshError = (key: string, error: unknown): void => {
    if (client) recordRefreshError(client, key, error).catch(() => undefined);
  };
  return {
    onResult: (key, state) => metrics()?.cacheResult('data', siteOfKey(key), state),
    onStaleIfError: (key, error) => {
      metrics()?.cacheError('data', 'stale-if-error');
      noteRefreshError(key, error);
    },
    onUnreadable: (key, error) => {
      metrics()?.cacheError('data', 'unreadable');
      logger.warn({ key, err: error }, 'cached entry of another shape: read as a miss, loaded again');
    },
    onCoalesced: (_key, where) => metrics()?.coalescedWaiter(where),
    onLockWaited: (_key, ms) => metrics()?.lockWaited(ms / 1000),
    onBackgroundError: (key, error) => {
      metrics()?.cacheError('data', 'refresh-failed');
      logger.warn({ key, err: error }, 'background refresh failed');
      noteRefreshError(key, error);
    },
  };
}

function announceInstance(
  deps: CacheDeps,
  client: RedisClient,
  instance: { id: string; build: string },
  url: string,
  onInstances: (instances: Announcement[]) => void,
): InstanceAnnouncer {
  const { config, logger } = deps;
  const announcer = new InstanceAnnouncer({
    client,
    prefix: config.CACHE_PREFIX,
    record: { ...instance, url: internalUrlOf(withPort(url, config.INTERNAL_PORT), config.INTERNAL_URL) },
    ...(deps.announceEveryMs ? { everyMs: deps.announceEveryMs } : {}),
    onError: (error) => logger.warn({ err: error }, 'instance announcement not written (portal-cache inspect may not list it)'),
    onInstances,
  });
  announcer.start();
  return announcer;
}

/** The listener's URL with the internal port, where the CLI reaches /_internal when INTERNAL_PORT is set. */
function withPort(url: string, port: number | undefined): string {
  if (port === undefined) return url;
  const parsed = new URL(url);
  parsed.port = String(port);
  return parsed.origin;
}
