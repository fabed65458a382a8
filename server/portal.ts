/**
 * Wires a portal from its configuration: the cache store (Redis when REDIS_URL is set, the in-process LRU
 * otherwise), the upstream client, the content service, the assets, and the Express app around them. One
 * Redis client (plain, Sentinel or Cluster: server/redis/client.ts) serves the store, the lock, the policy,
 * sessions and publishing; the coherence bus opens its own subscriber from it.
 */
import { UsedLinks } from './preview/used-links';
import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import { Cache } from './cache/cache';
import { MemoryStore } from './cache/memory-store';
import { PageCache } from './cache/page-cache';
import { RedisStore, type CommandObserver } from './cache/redis-store';
import type { CacheStore } from './cache/store';
import { CacheBus, type OperatorPurge } from './cache/coherence';
import { InstanceAnnouncer, internalUrlOf } from './cache/instances';
import { TieredStore, type OutagePolicy } from './cache/tiered-store';
import { claimCount, Purges, type PurgeAnnouncement } from './cache/purges';
import { PurgeClock } from './cache/purge-clock';
import { edgePurgerOf } from './cache/edge-purge';
import { RuntimePolicy } from './cache/runtime-policy';
import { recordRefreshError } from './cache/refresh-errors';
import { RedisLock } from './cache/redis-lock';
import { Metrics, siteOfKey, type RedisRole } from './metrics';
import { createRedisClient, type RedisClient } from './redis/client';
import { RedisHealth } from './redis/health';
import { RedisStall } from './redis/stall';
import { parseRedisTarget, redactRedisUrl } from './redis/target';
import { createApp, internalApp } from './app';
import type { ReadinessDeps } from './health';
import type { InternalDeps } from './internal-routes';
import { AccountClient } from './auth/account-client';
import { MemorySecretStore, RedisSecretStore, type SecretStore } from './auth/secret-store';
import { Sessions } from './auth/sessions';
import { authSettings } from './auth/settings';
import type { Config } from './config';
import type { Logger } from './logger';
import { redisMemory } from './redis/memory-info';
import { OutageLog } from './redis/outage-log';
import { securityHeaders, securityOptionsOf } from './middleware/security';
import { loadAssets, type Assets } from './render/assets';
import { compiledTrust, withForwardedHeaderCheck } from './middleware/forwarded-check';
import { withCanonicalAcceptEncoding } from './render/accept-encoding';
import { pageHits } from './render/page-hits';
import { canonicalTargets } from './middleware/canonical-target';
import { withFramingPolicy } from './middleware/request-framing';
import { ContentService } from './upstream/content-service';
import { UpstreamClient } from './upstream/http-client';
import { UpstreamFailureLog } from './upstream/failure-log';
import { FlagWatch } from './upstream/flag-watch';
import { GREY_MODE_CALL } from './upstream/content-calls/decoration';

export interface Portal {
  app: Express;
  /** What the HTTP server runs: fresh cached pages answered in front of the app (render/page-hits.ts), the rest by it. */
  handler: RequestListener;
  /** What the internal listener runs (INTERNAL_PORT): /metrics, /_internal, /healthz, /readyz; null without one. */
  internalHandler: RequestListener | null;
  store: CacheStore;
  /** The cache policy in force (defaults plus operator overrides from Redis). */
  cachePolicy: RuntimePolicy;
  assets: Assets;
  /** This instance as the coherence bus and the purge acknowledgements name it. */
  instance: { id: string; build: string };
  /** Marks the portal as draining: /readyz answers 503 from now on. */
  startDraining(): void;
  /** The server listens at `url`: with Redis, announce this instance there for `portal-cache inspect`. */
  listening(url: string): void;
  close(): Promise<void>;
}

export interface PortalOptions {
  config: Config;
  logger: Logger;
  /** The content API to use; config.UPSTREAM_URL unless the caller started one in-process. */
  upstreamUrl: string;
  assets?: Assets;
  /** The upstream is the in-process reference API: its media are served through this portal. */
  embeddedUpstream?: boolean;
  /** false: every request goes through the Express chain (tests compare both ways of answering a hit). */
  pageHits?: boolean;
  /** How often the instance's announcement is refreshed (server/cache/instances.ts); tests shorten it. */
  announceEveryMs?: number;
  /** How often a line says a Redis outage or a failing content call goes on (outage-log.ts, failure-log.ts; a minute); tests shorten it. */
  outageLogEveryMs?: number;
}

interface Stores {
  store: CacheStore;
  redis: RedisStore | null;
  /** Present when an in-process tier sits in front of Redis. */
  tiered: TieredStore | null;
  bus: CacheBus | null;
}

/** What the stores report as they run, bound to the portal's metrics once those exist. */
interface StoreObservers {
  onCommand: CommandObserver;
  onInvalidation: (kind: 'evict' | 'policy' | 'audit' | 'purge', keys: number) => void;
  /** Another instance (or the CLI) purged: drop this instance's L1 copies and acknowledge. */
  onPurge: (announcement: PurgeAnnouncement) => void;
  /** The CLI says how its purge went: counted by the one instance that claims it. */
  onOperatorPurge: (purge: OperatorPurge, client: RedisClient) => void;
  /** The purge log as the bus tells it (purges.ts catchUp): heard up to an entry, stopped hearing, hearing again. */
  purgeLog: { heard: (logId: string) => void; lost: () => void; resubscribed: () => Promise<boolean> };
  /** The outage policy in force (the run-time policy, once it exists). */
  outage: () => OutagePolicy;
  /** Logs of Redis outages: one per client, stopped with the portal. */
  outageLog: (redis: string, consequence: string, describe?: () => Record<string, unknown>) => OutageLog;
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
async function catchUpRetried(purges: Purges, client: RedisClient | undefined): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (client) await untilReady(client, READY_WAIT_MS);
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

function createStores(config: Config, logger: Logger, onPolicyChange: () => void, observers: StoreObservers): Stores {
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
        .resubscribed()
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
  // Connected but not answering: the cache goes on without Redis until it answers (server/redis/stall.ts).
  const stall = new RedisStall(client, {
    onChange: (stalled, ms) => {
      if (stalled) logger.warn({ redis: redactRedisUrl(url) }, 'redis stalled: a command timed out; the cache reads and writes without it until it answers');
      else logger.info({ redis: redactRedisUrl(url), stalledMs: ms }, 'redis answers again after a stall');
    },
  });
  return new RedisStore({ client, onCommand, stall });
}

function createPortalRedisClient(url: string, commandTimeoutMs: number, logger: Logger, outageLog: OutageLog): RedisClient {
  const client = createRedisClient(parseRedisTarget(url), { role: 'portal', commandTimeoutMs });
  // Its start, every minute of it, a new error within it and its end: one line each, for every outage.
  outageLog.watch(client);
  // A cluster's per-node errors (a master gone, a failover) arrive as 'node error', not 'error'.
  let lastNodeError = '';
  client.on('node error', (error: Error, node: string) => {
    if (`${node} ${error.message}` === lastNodeError) return;
    lastNodeError = `${node} ${error.message}`;
    logger.warn({ err: error.message, node }, 'redis cluster node unavailable');
  });
  client.on('ready', () => (lastNodeError = ''));
  return client;
}

/** Header on every answer of a portal reading the generated reference dataset: nobody mistakes it for the news. */
export const CONTENT_SOURCE_HEADER = 'X-Content-Source';

function labelledReference(handler: RequestListener): RequestListener {
  return (req, res) => {
    res.setHeader(CONTENT_SOURCE_HEADER, 'reference-dataset');
    handler(req, res);
  };
}

/** The listener's URL with the internal port, where the CLI reaches /_internal when INTERNAL_PORT is set. */
function withPort(url: string, port: number | undefined): string {
  if (port === undefined) return url;
  const parsed = new URL(url);
  parsed.port = String(port);
  return parsed.origin;
}

function originOf(url: string): string[] {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' ? [parsed.origin] : [];
}

export function createPortal(options: PortalOptions): Portal {
  const { config } = options;
  const assets = options.assets ?? loadAssets();
  // Every line of this instance names the build it runs: an error or a slow request is matched to a deploy.
  const logger = options.logger.child({ build: assets.buildId });
  // A shared Redis is a deployment with instances behind a balancer: there, a CMS publish that gets a 404 is
  // missed silently, so say it once (a single local portal without Redis has no CMS to hear).
  if (config.REDIS_URL && !config.PURGE_SECRET) {
    logger.warn(
      { publishHook: 'off' },
      'publish hook off: PURGE_SECRET is not set, so CMS publishes are refused (404) and corrections wait for the cache TTLs (docs/publish-hook.md)',
    );
  }
  let policy: RuntimePolicy | null = null;
  let metrics: Metrics | null = null;
  const onCommand: CommandObserver = (op, ms, outcome) => metrics?.redisCommand(op, ms / 1000, outcome);
  const outageDefaults: OutagePolicy = { window: config.L1_OUTAGE_SERVE_S, ttl: config.L1_OUTAGE_TTL_S };
  const outageLogs: OutageLog[] = [];
  const outageLog = (redisName: string, consequence: string, describe?: () => Record<string, unknown>, role: RedisRole = 'cache'): OutageLog => {
    const log = new OutageLog({
      logger,
      redis: redisName,
      consequence,
      onStarted: () => metrics?.redisOutageStarted(role),
      onEnded: (seconds) => metrics?.redisOutageEnded(role, seconds),
      onReconnected: () => metrics?.redisReconnected(role),
      ...(describe ? { describe } : {}),
      ...(options.outageLogEveryMs ? { everyMs: options.outageLogEveryMs } : {}),
    });
    outageLogs.push(log);
    return log;
  };
  let purges: Purges | null = null;
  const purgeClock = new PurgeClock();
  const { store, redis, tiered, bus } = createStores(config, logger, () => void policy?.reload(), {
    onCommand,
    purgeClock,
    onInvalidation: (kind, keys) => metrics?.invalidationReceived(kind, keys),
    outage: () => policy?.outage() ?? outageDefaults,
    outageLog,
    onPurge: (announcement) =>
      void purges?.acknowledge(announcement).catch((error: unknown) => logger.warn({ err: error, purge: announcement.id }, 'purge not acknowledged')),
    onOperatorPurge: (purge, client) =>
      void claimCount(client, config.CACHE_PREFIX, purge.id).then(
        (mine) => mine && metrics?.purgeFinished('cli', purge),
        () => undefined,
      ),
    purgeLog: {
      heard: (logId) => purges?.heard(logId),
      lost: () => purges?.stoppedListening(),
      resubscribed: async () => (purges ? catchUpRetried(purges, redis?.client) : false),
    },
  });
  const instance = { id: bus?.instanceId ?? randomUUID(), build: assets.buildId };
  const edgePurger = edgePurgerOf(config);
  purges = new Purges({
    store,
    prefix: config.CACHE_PREFIX,
    client: redis?.client ?? null,
    self: {
      id: instance.id,
      // Then the writes under way: each ends in place, or undone if the purge covers it (cache.ts put).
      purgeLocal: async (selectors, build) => {
        const dropped = tiered ? await tiered.purgeLocal(selectors, { prefix: config.CACHE_PREFIX, buildId: build }) : { entries: 0, keys: [] };
        await cache.writesSettled();
        return dropped;
      },
    },
    edges: edgePurger,
    onEdgeFollowUp: (acks) => {
      for (const ack of acks)
        if (!ack.ok) logger.warn({ edge: ack.edge, reason: ack.reason }, `edge ${ack.edge} did not acknowledge a follow-up purge: ${ack.reason}`);
    },
    clock: purgeClock,
    onReplay: (record, error) => {
      if (record) logger.info({ purge: record }, `purge held while Redis was down replayed: ${record.what}`);
      else logger.warn({ err: error }, 'held purges not replayed yet (Redis did not answer); trying again');
    },
  });
  const health = redis ? new RedisHealth(redis.client) : null;
  metrics = new Metrics({
    l1Bytes: () => tiered?.l1Bytes ?? (store instanceof MemoryStore ? store.bytes : 0),
    redisUp: async () => (health ? health.isUp() : null),
    redisReadOnly: async () => (health ? (await health.state()) === 'read-only' : null),
    invalidationSubscribed: () => (bus ? bus.isSubscribed() : null),
    l1Unverified: () => tiered?.servingUnverified() ?? false,
    cacheMode: () => tiered?.mode() ?? null,
    build: assets.buildId,
    l1Capacity: () => {
      const l1 = tiered?.l1 ?? (store instanceof MemoryStore ? store : null);
      return l1 ? { maxBytes: l1.maxBytes, evictions: l1.evictions } : null;
    },
    redisMemory: async () => (redis ? redisMemory(redis.client) : null),
    edges: edgePurger?.edges ?? [],
  });
  policy = new RuntimePolicy(
    redis?.client ?? null,
    config.CACHE_PREFIX,
    (error) => logger.warn({ err: error }, 'cache policy could not be read; keeping the last one'),
    outageDefaults,
  );
  policy.start();
  const upstream = new UpstreamClient({
    baseUrl: options.upstreamUrl,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    maxBodyBytes: config.UPSTREAM_MAX_BODY_BYTES,
    onCall: (call, outcome, durationMs) => metrics.upstreamCall(call, outcome, durationMs),
    onAnswer: (call, bytes) => metrics.upstreamAnswer(call, bytes),
    onRedirect: (call, status, locationHost) => logger.warn({ call, status, locationHost }, 'upstream answered a redirect; not followed'),
  });
  const keys = { prefix: config.CACHE_PREFIX, buildId: assets.buildId };
  // For `portal-cache inspect`: best effort, a Redis that cannot take it has bigger news in the log already.
  const noteRefreshError = (key: string, error: unknown): void => {
    if (redis) recordRefreshError(redis.client, key, error).catch(() => undefined);
  };
  // A live holder's load is one upstream call, sent at most twice (http-client.ts): waiting longer than that and a
  // lock timeout more is waiting on something that is not a load (docs/cache.md, "Whatever Redis holds").
  const lockMaxWaitMs = config.CACHE_LOCK_TIMEOUT_MS + 2 * config.UPSTREAM_TIMEOUT_MS;
  const lock = redis ? new RedisLock(redis.client, config.CACHE_LOCK_TIMEOUT_MS, undefined, onCommand, lockMaxWaitMs, redis.stall) : null;
  const cache = new Cache(
    store,
    {
      onResult: (key, state) => metrics.cacheResult('data', siteOfKey(key), state),
      onStaleIfError: (key, error) => {
        metrics.cacheError('data', 'stale-if-error');
        noteRefreshError(key, error);
      },
      onUnreadable: (key, error) => {
        metrics.cacheError('data', 'unreadable');
        logger.warn({ key, err: error }, 'cached entry of another shape: read as a miss, loaded again');
      },
      onCoalesced: (_key, where) => metrics.coalescedWaiter(where),
      onLockWaited: (_key, ms) => metrics.lockWaited(ms / 1000),
      onBackgroundError: (key, error) => {
        metrics.cacheError('data', 'refresh-failed');
        logger.warn({ key, err: error }, 'background refresh failed');
        noteRefreshError(key, error);
      },
    },
    lock,
    purgeClock,
  );
  const upstreamFailures = new UpstreamFailureLog(logger, options.outageLogEveryMs ? { everyMs: options.outageLogEveryMs } : {});
  const content = new ContentService({
    upstream,
    cache,
    keys,
    policy,
    // One line when a call family starts failing, one a minute while it does, one when it answers again.
    onUpstreamError: (call, error) => upstreamFailures.failed(call, error),
    onUpstreamAnswer: (call) => upstreamFailures.answered(call),
  });
  const greyWatch = new FlagWatch({
    name: 'grey',
    reload: () => content.reload(GREY_MODE_CALL),
    purge: async ({ was, now }) => {
      await purges.run([{ by: 'tag', tag: 'grey' }], {
        tags: ['grey'],
        urls: [],
        soft: true,
        who: `portal ${instance.id}`,
        source: 'watch',
        what: `grey mode ${was} → ${now} (flag watch)`,
      });
    },
    everyMs: config.FLAG_WATCH_S * 1000,
    logger,
  });
  greyWatch.start();
  let draining = false;
  // Sessions must not be evicted with cache entries: SESSION_REDIS_URL names a Redis without eviction for them.
  const sessionClient = config.SESSION_REDIS_URL
    ? createPortalRedisClient(
        config.SESSION_REDIS_URL,
        config.REDIS_COMMAND_TIMEOUT_MS,
        logger,
        outageLog(redactRedisUrl(config.SESSION_REDIS_URL), 'sign-in fails until it returns', undefined, 'session'),
      )
    : (redis?.client ?? null);
  const sessionHealth = config.SESSION_REDIS_URL && sessionClient ? new RedisHealth(sessionClient) : null;
  const secretStore = (namespace: string): SecretStore =>
    sessionClient ? new RedisSecretStore(sessionClient, `${config.CACHE_PREFIX}:${namespace}`) : new MemorySecretStore();
  const settings = authSettings(config, options.embeddedUpstream ? options.upstreamUrl : undefined);
  const pageCache = new PageCache(cache, keys, lock);
  const mediaOrigins = [...config.MEDIA_ORIGINS, ...(options.embeddedUpstream ? [] : originOf(options.upstreamUrl))];
  // Made once: the Express chain and the cached-hit path in front of it send the same headers.
  const security = securityHeaders(securityOptionsOf(mediaOrigins, config.PUBLIC_ORIGIN_PROTOCOL, settings));
  const l1 = tiered ?? (store instanceof MemoryStore ? store : null);
  let announcer: InstanceAnnouncer | null = null;
  const internal: InternalDeps = {
    l1: l1 && {
      peek: (key) => (l1 instanceof TieredStore ? l1.peekL1(key) : l1.peek(key)),
      trusted: () => (l1 instanceof TieredStore ? l1.trustsL1() : true),
    },
    token: config.INTERNAL_TOKEN,
    instance,
    purge: { secret: config.PURGE_SECRET, purges, logger, metrics },
  };
  const readiness: ReadinessDeps = {
    store,
    redisState: health ? () => health.state() : null,
    sessionsState: sessionHealth ? () => sessionHealth.state() : null,
    isDraining: () => draining,
    cacheMode: () => tiered?.mode() ?? null,
    content: options.embeddedUpstream ? 'reference-dataset' : 'upstream',
    publishHook: config.PURGE_SECRET ? 'on' : 'off',
    upstreamAnswers: async () => (await upstream.request({ method: 'GET', path: '/api/common/grey_mode', call: 'readiness' })).outcome !== 'unavailable',
  };
  const app = createApp({
    internal,
    auth: {
      settings,
      sessions: new Sessions(secretStore('session'), secretStore('login'), settings.sessionTtlSeconds),
      accounts: new AccountClient(upstream),
    },
    upstream,
    config,
    logger,
    cache,
    keys,
    content,
    pageCache,
    cachePolicy: policy,
    metrics,
    assets,
    security,
    ...(options.embeddedUpstream ? { embeddedMediaUpstream: options.upstreamUrl } : {}),
    readiness,
    preview: config.PREVIEW_SECRET
      ? { secret: config.PREVIEW_SECRET, usedLinks: new UsedLinks(redis ? { client: redis.client, prefix: config.CACHE_PREFIX } : null) }
      : null,
  });
  const chain =
    options.pageHits === false
      ? app
      : pageHits(
          {
            pageCache,
            cachePolicy: policy,
            logger,
            metrics,
            security,
          },
          app,
        );
  // Every request's path is brought to its one spelling before anything else reads it.
  const handler = canonicalTargets({ logger, metrics, security }, chain);
  // The hit path and the chain's compression negotiate on the same reading of Accept-Encoding.
  // Framing first (request-framing.ts): a request whose host or length a proxy might read otherwise goes no further.
  const edge = withFramingPolicy(
    { logger, metrics, security },
    withForwardedHeaderCheck(compiledTrust(app.get('trust proxy fn')), logger, withCanonicalAcceptEncoding(handler)),
  );
  return {
    app,
    // With INTERNAL_PORT: /metrics, /_internal and the probes on a listener of their own (internal-listener.ts).
    internalHandler: config.INTERNAL_PORT === undefined ? null : internalApp({ metrics, internal, readiness }),
    handler: options.embeddedUpstream ? labelledReference(edge) : edge,
    store,
    cachePolicy: policy,
    assets,
    instance,
    startDraining: () => {
      draining = true;
    },
    listening: (url) => {
      if (!redis || announcer) return;
      announcer = new InstanceAnnouncer({
        client: redis.client,
        prefix: config.CACHE_PREFIX,
        record: { ...instance, url: internalUrlOf(withPort(url, config.INTERNAL_PORT), config.INTERNAL_URL) },
        ...(options.announceEveryMs ? { everyMs: options.announceEveryMs } : {}),
        onError: (error) => logger.warn({ err: error }, 'instance announcement not written (portal-cache inspect may not list it)'),
      });
      announcer.start();
    },
    close: async () => {
      for (const log of outageLogs) log.stop();
      await greyWatch.stop();
      await announcer?.stop();
      upstream.close();
      policy?.stop();
      purges?.close();
      bus?.close();
      await store.close();
      if (sessionClient && sessionClient !== redis?.client) sessionClient.disconnect();
    },
  };
}
