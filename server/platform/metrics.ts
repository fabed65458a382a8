/**
 * Prometheus metrics (prom-client) for the people who run the portal: requests by route and status, latency
 * and first byte, renders by route (time, outcome, aborts), cache results by kind, route and site, upstream
 * latency, outcomes and answer sizes by call, Redis commands (latency, errors, timeouts), the invalidation
 * channel, lock waits, purges received, coalesced waiters, L1 bytes, Redis availability and build info.
 * One registry per portal (not prom-client's global one), so several portals in one process (tests, benchmarks)
 * do not collide. Labels are bounded: route ids from the route table (never paths), site domains from the
 * site table, call names from the content service. deploy/grafana-dashboard.json and deploy/prometheus/ use
 * these names; test/deploy/monitoring.test.ts checks every name they use against a live /metrics.
 */
import type { ServerResponse } from 'node:http';
import { totalmem } from 'node:os';
import type { RequestHandler, Router } from 'express';
import { Router as createRouter } from 'express';
import onHeaders from 'on-headers';
import client from 'prom-client';
import { siteById } from '../../shared/sites';
import { packageInfo } from './package-info';
import { areaOf, ROUTE_AREAS } from './route-area';
import { routeTable } from '../../shared/routes';

export type CacheKind = 'page' | 'data';
export type CacheResult = 'HIT' | 'MISS' | 'STALE' | 'PASS';

export type RenderOutcome = 'clean' | 'error' | 'aborted' | 'shell-error';
export type RedisOutcome = 'ok' | 'error' | 'timeout';

/** Who asked for a purge: the CMS's publish hook, or an operator's `portal-cache purge`. */
export const PURGE_SOURCES = ['hook', 'cli'] as const;
export type PurgeSource = (typeof PURGE_SOURCES)[number];
/**
 * complete: every instance and edge acknowledged; partial: carried out, some did not (named in the answer and
 * the log); held: Redis was away, every instance and edge reached straight, Redis to follow (the replay);
 * refused: a bad request (signature, body, tag), nothing purged; failed: the store did not answer.
 */
export const PURGE_OUTCOMES = ['complete', 'partial', 'held', 'refused', 'failed'] as const;
export type PurgeOutcome = (typeof PURGE_OUTCOMES)[number];

/** The 5xx statuses alert rules read (PortalHigh5xx): their series start at 0 for every route label. */
const ALERTED_5XX = ['500', '502', '503', '504'] as const;

/** Which Redis an outage is of: the cache's (REDIS_URL) or the sessions' own (SESSION_REDIS_URL). */
export const REDIS_ROLES = ['cache', 'session'] as const;
export type RedisRole = (typeof REDIS_ROLES)[number];
const OUTAGE_BUCKETS = [1, 5, 15, 30, 60, 300, 1800];

/** A carried-out purge as the counters read it (purges.ts's PurgeRecord has these and more). */
export interface PurgeSummary {
  ms: number;
  instances: { missing: readonly string[] };
  edges: readonly { edge: string; ok: boolean }[];
  /** Set when Redis could not be reached and the purge was held (purges.ts): partial until replayed. */
  unreached?: readonly string[];
}

export interface MetricsSources {
  l1Bytes: () => number;
  /** Null without Redis. */
  redisUp: () => Promise<boolean | null>;
  /** Whether Redis answers as a replica (writes refused); null without Redis. */
  redisReadOnly?: () => Promise<boolean | null>;
  /** Null without Redis: whether the invalidation channel is subscribed. */
  invalidationSubscribed?: () => boolean | null;
  /** L1 answering without the channel (Redis unreachable): what it serves cannot be checked against purges. */
  l1Unverified?: () => boolean;
  /** The client build id (the cache keys' build segment). */
  build?: string;
  /** How L1 is used now (tiered-store.ts's mode); null without Redis in front of an L1. */
  cacheMode?: () => string | null;
  /** Every mode cacheMode may name: each has its series (tiered-store.ts's CACHE_MODES). */
  cacheModes?: readonly string[];
  /** L1's capacity and the entries it evicted to make room since start; null without an L1. */
  l1Capacity?: () => { maxBytes: number; evictions: number } | null;
  /** The cache Redis's own memory figures; null without Redis or while it does not answer. */
  redisMemory?: () => Promise<RedisMemory | null>;
  /** The edges purges go to (EDGE_PURGE_URLS's origins): their series start at 0. */
  edges?: readonly string[];
}

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const REDIS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
const PURGE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10];
const SIZE_BUCKETS = [256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304];
/** The site label of shared data entries (answered the same for every site). */
/** The cache Redis's own memory figures (redis/memory-info.ts reads them). */
export interface RedisMemory {
  usedBytes: number;
  maxBytes: number;
  evictedKeys: number;
}

/** Which part of a request did not arrive in time (server-guard.ts). */
export type ReadPhase = 'headers' | 'body';

export const SHARED_SITE = 'shared';

export class Metrics {
  readonly registry = new client.Registry();
  private readonly requests = new client.Counter({
    name: 'portal_http_requests_total',
    help: 'HTTP requests by route (route table id or area) and status',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new client.Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to the end of the response, by route',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly firstByte = new client.Histogram({
    name: 'portal_http_first_byte_seconds',
    help: 'Time to the response head (for a streamed page: the shell), by route',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly cache = new client.Counter({
    name: 'portal_cache_results_total',
    help: 'Cache lookups by kind (page, data), route (page routes; _ for data), site domain (shared for data) and result (HIT, MISS, STALE, PASS)',
    labelNames: ['kind', 'route', 'site', 'result'] as const,
    registers: [this.registry],
  });
  private readonly renders = new client.Histogram({
    name: 'portal_render_duration_seconds',
    help: 'Server renders from the start of their loaders to the end of the document, by route and outcome (clean, error, aborted, shell-error)',
    labelNames: ['route', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly readTimeouts = new client.Counter({
    name: 'portal_request_read_timeouts_total',
    help: 'Requests not received within REQUEST_READ_TIMEOUT_MS, answered 408 and their connection closed, by phase (headers, body)',
    labelNames: ['phase'] as const,
    registers: [this.registry],
  });
  private readonly renderAborts = new client.Counter({
    name: 'portal_render_aborts_total',
    help: 'Renders aborted at RENDER_TIMEOUT_MS (their pending blocks left to the browser), by route',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  private readonly upstreamBytes = new client.Histogram({
    name: 'portal_upstream_response_bytes',
    help: 'Size of upstream answers (body bytes), by call',
    labelNames: ['call'] as const,
    buckets: SIZE_BUCKETS,
    registers: [this.registry],
  });
  private readonly redisCommands = new client.Histogram({
    name: 'portal_redis_command_duration_seconds',
    help: 'Redis commands of the cache, lock and sessions by operation and outcome (ok, error, timeout)',
    labelNames: ['op', 'outcome'] as const,
    buckets: REDIS_BUCKETS,
    registers: [this.registry],
  });
  private readonly lockWaits = new client.Histogram({
    name: 'portal_cache_lock_wait_seconds',
    help: 'Time a load waited for another instance holding the key lock (cross-instance coalescing)',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly invalidations = new client.Counter({
    name: 'portal_cache_invalidations_received_total',
    help: 'Invalidation announcements received from other instances and the CLI, by kind (evict, policy)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly evictedKeys = new client.Counter({
    name: 'portal_cache_invalidated_keys_total',
    help: 'Keys named by evict announcements (purges and refreshes elsewhere), dropped from L1',
    registers: [this.registry],
  });
  private readonly cacheErrors = new client.Counter({
    name: 'portal_cache_errors_total',
    help: 'Cache problems by kind: stale served because a reload failed, failed background refreshes, held entries of another shape read as misses',
    labelNames: ['kind', 'error'] as const,
    registers: [this.registry],
  });
  private readonly upstream = new client.Histogram({
    name: 'portal_upstream_duration_seconds',
    help: 'Upstream calls by call name and outcome (ok, empty: a non-zero code, unavailable, http-error, invalid: wrong shape, too-large, redirect: a 3xx, never followed)',
    labelNames: ['call', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly upstreamFailures = new client.Counter({
    name: 'portal_upstream_failures_total',
    help: 'Upstream calls that failed (every outcome but ok and empty), by call name; a call series starts at 0 when the call is first made, so the error ratio and its alert see the first failure',
    labelNames: ['call'] as const,
    registers: [this.registry],
  });
  /** Call names made so far: each one's failure series is started at 0 then. */
  private readonly callsSeen = new Set<string>();
  private readonly images = new client.Counter({
    name: 'portal_image_requests_total',
    help: 'Requests to the embedded resizer (/img/) by outcome: hit (a stored picture), resized, fallback (the original failed: a placeholder), refused (an address the portal never makes, or a source not configured), busy (503)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly imageFailures = new client.Counter({
    name: 'portal_image_failures_total',
    help: 'Originals the resizer could not draw, by reason (redirect, status, too-large, timeout, private-address, unreachable, not-a-picture, format, too-many-pixels)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly coalesced = new client.Counter({
    name: 'portal_cache_coalesced_waiters_total',
    help: 'Requests that waited for a load of the same key instead of calling upstream (process or cluster)',
    labelNames: ['where'] as const,
    registers: [this.registry],
  });

  private readonly purges = new client.Counter({
    name: 'portal_purges_total',
    help: 'Purges by source (hook: the publish hook of this instance; cli: portal-cache purge, counted by one instance) and outcome (complete, partial: some instance or edge did not acknowledge, refused: bad request, failed: the store did not answer)',
    labelNames: ['source', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly purgeDuration = new client.Histogram({
    name: 'portal_purge_duration_seconds',
    help: 'Purges carried out (complete or partial), from the order to the last acknowledgement or its timeout, by source',
    labelNames: ['source'] as const,
    buckets: PURGE_BUCKETS,
    registers: [this.registry],
  });
  private readonly purgeInstancesMissing = new client.Counter({
    name: 'portal_purge_instances_unacknowledged_total',
    help: 'Instances that did not acknowledge a purge within its timeout (their L1 may still serve the old page), by source; summed over purges',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  private readonly purgeEdgesMissing = new client.Counter({
    name: 'portal_purge_edge_unacknowledged_total',
    help: 'Purges an edge (EDGE_PURGE_URLS origin) did not acknowledge (refused, failed or no answer in time): it may still serve the old page; by source and edge',
    labelNames: ['source', 'edge'] as const,
    registers: [this.registry],
  });

  private readonly redisOutages = new client.Counter({
    name: 'portal_redis_outages_total',
    help: 'Redis outages begun (the first error after being connected, or at start), by redis (cache, session)',
    labelNames: ['redis'] as const,
    registers: [this.registry],
  });
  private readonly redisReconnects = new client.Counter({
    name: 'portal_redis_reconnects_total',
    help: 'Times the Redis client connected again after having been connected, by redis (cache, session)',
    labelNames: ['redis'] as const,
    registers: [this.registry],
  });
  private readonly redisOutageDuration = new client.Histogram({
    name: 'portal_redis_outage_duration_seconds',
    help: 'Redis outages that ended, by how long they lasted, by redis (cache, session)',
    labelNames: ['redis'] as const,
    buckets: OUTAGE_BUCKETS,
    registers: [this.registry],
  });
  /** When the outage of each Redis now going on began (performance.now()). */
  private readonly outageSince = new Map<RedisRole, number>();

  constructor(sources: MetricsSources) {
    this.startPurgeSeries(sources.edges ?? []);
    this.startFixedSeries();
    this.registerOutageGauge();
    this.registerStoreGauges(sources);
    this.registerL1Gauges(sources);
    this.registerRedisMemory(sources.redisMemory);
    this.registerBuildInfo(sources.build);
    this.registerMemoryLimit();
    client.collectDefaultMetrics({ register: this.registry, prefix: 'portal_' });
  }

  /** The memory this process may use (the container's limit, else the machine's), beside its resident memory. */
  private registerMemoryLimit(): void {
    new client.Gauge({
      name: 'portal_process_memory_limit_bytes',
      help: 'Memory this process may use: its cgroup limit (a container limit), else the machine total; PortalMemoryNearLimit reads resident memory against it',
      registers: [this.registry],
      collect() {
        this.set(memoryLimitBytes());
      },
    });
  }

  /** How long each Redis's outage going on has lasted, read at each scrape. */
  private registerOutageGauge(): void {
    const outageSince = this.outageSince;
    new client.Gauge({
      name: 'portal_redis_outage_seconds',
      help: 'How long the Redis outage going on has lasted (0: none), by redis (cache, session)',
      labelNames: ['redis'] as const,
      registers: [this.registry],
      collect() {
        for (const redis of REDIS_ROLES) {
          const since = outageSince.get(redis);
          this.set({ redis }, since === undefined ? 0 : (performance.now() - since) / 1000);
        }
      },
    });
  }

  /** Whether the stores can do their work now: L1's size, Redis up or read-only, the channel, L1 unverified. */
  private registerStoreGauges(sources: MetricsSources): void {
    new client.Gauge({
      name: 'portal_cache_l1_bytes',
      help: 'Bytes held by the in-process cache tier',
      registers: [this.registry],
      collect() {
        this.set(sources.l1Bytes());
      },
    });
    new client.Gauge({
      name: 'portal_redis_up',
      help: '1 when Redis answers, 0 when it does not (absent without Redis)',
      registers: [this.registry],
      async collect() {
        const up = await sources.redisUp();
        if (up !== null) this.set(up ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'portal_redis_read_only',
      help: '1 while Redis answers as a replica and refuses every write (a failover demoted it): hits served, nothing stored, sign-in refused; 0 otherwise (absent without Redis)',
      registers: [this.registry],
      async collect() {
        const readOnly = (await sources.redisReadOnly?.()) ?? null;
        if (readOnly !== null) this.set(readOnly ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'portal_cache_invalidation_subscribed',
      help: '1 while the invalidation channel is subscribed (purges reach this instance), 0 while not (absent without Redis)',
      registers: [this.registry],
      collect() {
        const subscribed = sources.invalidationSubscribed?.() ?? null;
        if (subscribed !== null) this.set(subscribed ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'portal_cache_l1_unverified',
      help: '1 while L1 answers without the invalidation channel because Redis is unreachable (as usual within the outage window, with short TTLs past it)',
      registers: [this.registry],
      collect() {
        this.set(sources.l1Unverified?.() ? 1 : 0);
      },
    });
  }

  /** How L1 is used now, its capacity and what it evicted to make room. */
  private registerL1Gauges(sources: MetricsSources): void {
    new client.Gauge({
      name: 'portal_cache_mode',
      help: '1 for the way L1 is used now: coherent, bypass (Redis up, channel not subscribed), outage (Redis unreachable, within the outage window), outage-short-ttl (past it: short TTLs); absent without Redis and L1',
      labelNames: ['mode'] as const,
      registers: [this.registry],
      collect() {
        const now = sources.cacheMode?.() ?? null;
        this.reset();
        if (now === null) return;
        for (const mode of sources.cacheModes ?? []) this.set({ mode }, mode === now ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'portal_cache_l1_max_bytes',
      help: 'Most bytes the in-process cache tier holds (L1_CACHE_MAX_MB; absent without an L1)',
      registers: [this.registry],
      collect() {
        const capacity = sources.l1Capacity?.() ?? null;
        if (capacity) this.set(capacity.maxBytes);
      },
    });
    new client.Counter({
      name: 'portal_cache_l1_evictions_total',
      help: 'L1 entries evicted to make room (not expiries or purges): sustained, L1 is too small for the pages asked for',
      registers: [this.registry],
      collect() {
        const capacity = sources.l1Capacity?.() ?? null;
        if (!capacity) return;
        this.reset();
        this.inc(capacity.evictions);
      },
    });
  }

  private registerRedisMemory(read: MetricsSources['redisMemory']): void {
    // Redis's own figures, read once a scrape (one INFO shared by the three; microseconds) and kept while Redis does
    // not answer: a counter dropping to 0 and back would read as a burst of evictions. Every instance reports the
    // same server, so rules take the max over instances.
    const memory = redisMemoryOncePerScrape(read);
    new client.Gauge({
      name: 'portal_redis_memory_used_bytes',
      help: 'Memory the cache Redis uses (INFO used_memory; on a cluster, summed over masters); the last figure while it does not answer',
      registers: [this.registry],
      async collect() {
        const figures = await memory();
        if (figures) this.set(figures.usedBytes);
      },
    });
    new client.Gauge({
      name: 'portal_redis_memory_max_bytes',
      help: 'maxmemory of the cache Redis (0: no limit); the last figure while it does not answer',
      registers: [this.registry],
      async collect() {
        const figures = await memory();
        if (figures) this.set(figures.maxBytes);
      },
    });
    new client.Counter({
      name: 'portal_redis_evicted_keys_total',
      help: 'Keys the cache Redis evicted for memory since it started (INFO evicted_keys); the last figure while it does not answer',
      registers: [this.registry],
      async collect() {
        const figures = await memory();
        if (!figures) return;
        this.reset();
        this.inc(figures.evictedKeys);
      },
    });
  }

  private registerBuildInfo(build: string | undefined): void {
    const info = new client.Gauge({
      name: 'portal_build_info',
      help: 'Always 1; the labels say what runs: client build id, package version, Node version',
      labelNames: ['build', 'version', 'node'] as const,
      registers: [this.registry],
    });
    info.set({ build: build ?? 'unknown', version: process.env.npm_package_version ?? packageInfo().version, node: process.version }, 1);
  }

  /** `site`: a site id, or `_` for data shared by all sites; counted under the site's domain. */
  cacheResult(kind: CacheKind, site: string | number, result: CacheResult, route = '_'): void {
    this.cache.inc({ kind, route, site: siteLabel(site), result });
  }

  renderFinished(route: string, seconds: number, outcome: RenderOutcome): void {
    this.renders.observe({ route, outcome }, seconds);
    if (outcome === 'aborted') this.renderAborts.inc({ route });
  }

  upstreamAnswer(call: string, bytes: number): void {
    this.upstreamBytes.observe({ call }, bytes);
  }

  redisCommand(op: string, seconds: number, outcome: RedisOutcome): void {
    this.redisCommands.observe({ op, outcome }, seconds);
  }

  lockWaited(seconds: number): void {
    this.lockWaits.observe(seconds);
  }

  invalidationReceived(kind: 'evict' | 'policy' | 'audit' | 'purge', keys = 0): void {
    this.invalidations.inc({ kind });
    if (keys > 0) this.evictedKeys.inc(keys);
  }

  cacheError(kind: CacheKind, error: 'stale-if-error' | 'refresh-failed' | 'unreadable'): void {
    this.cacheErrors.inc({ kind, error });
  }

  upstreamCall(call: string, outcome: string, durationMs: number): void {
    this.upstream.observe({ call, outcome }, durationMs / 1000);
    if (!this.callsSeen.has(call)) {
      this.callsSeen.add(call);
      this.upstreamFailures.inc({ call }, 0);
    }
    if (outcome !== 'ok' && outcome !== 'empty') this.upstreamFailures.inc({ call });
  }

  coalescedWaiter(where: 'process' | 'cluster'): void {
    this.coalesced.inc({ where });
  }

  /** A purge carried out: complete when every instance and edge acknowledged, else partial (and who did not). */
  purgeFinished(source: PurgeSource, purge: PurgeSummary): void {
    const missingEdges = purge.edges.filter((edge) => !edge.ok);
    const reachedAll = purge.instances.missing.length === 0 && missingEdges.length === 0;
    // Held for Redis alone is not partial: every reader-facing copy is gone, and PortalRedisDown already pages.
    const outcome = !reachedAll ? 'partial' : purge.unreached?.length ? 'held' : 'complete';
    this.purges.inc({ source, outcome });
    this.purgeDuration.observe({ source }, purge.ms / 1000);
    if (purge.instances.missing.length > 0) this.purgeInstancesMissing.inc({ source }, purge.instances.missing.length);
    for (const { edge } of missingEdges) this.purgeEdgesMissing.inc({ source, edge });
  }

  /** A purge not carried out: refused (a bad request) or failed (the store did not answer). */
  purgeNotDone(source: PurgeSource, outcome: 'refused' | 'failed'): void {
    this.purges.inc({ source, outcome });
  }

  /**
   * A finished response: counted by route and status, timed, and (a page, saying how it was served in X-Cache,
   * with its site id) counted as a cache result. `started`: performance.now() when the request came in.
   */
  requestFinished(res: ServerResponse, route: string, siteId: unknown, started: number, headAt?: number, cache: unknown = res.getHeader('X-Cache')): void {
    const now = performance.now();
    this.requests.inc({ route, status: String(res.statusCode) });
    const served = cache;
    if (isCacheResult(served) && typeof siteId === 'number') this.cacheResult('page', siteId, served, route);
    this.latency.observe({ route }, (now - started) / 1000);
    // A cached hit is written in one go (head and body): its first byte is its end.
    this.firstByte.observe({ route }, ((headAt ?? now) - started) / 1000);
  }

  /** Counts every request when it finishes; the page handler names its route in res.locals.metricsRoute. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const started = performance.now();
      let headAt: number | undefined;
      onHeaders(res, () => {
        headAt = performance.now();
      });
      res.once('finish', () => {
        const route = typeof res.locals.metricsRoute === 'string' ? res.locals.metricsRoute : areaOf(req.path);
        this.requestFinished(res, route, res.locals.siteId, started, headAt);
      });
      next();
    };
  }

  /** A request whose headers or body did not arrive within REQUEST_READ_TIMEOUT_MS (a slow or stalled client). */
  imageServed(outcome: string): void {
    this.images.inc({ outcome });
  }

  imageFailed(reason: string): void {
    this.imageFailures.inc({ reason });
  }

  readTimedOut(phase: ReadPhase): void {
    this.readTimeouts.inc({ phase });
  }

  redisOutageStarted(redis: RedisRole): void {
    this.redisOutages.inc({ redis });
    this.outageSince.set(redis, performance.now());
  }

  redisOutageEnded(redis: RedisRole, seconds: number): void {
    this.redisOutageDuration.observe({ redis }, seconds);
    this.outageSince.delete(redis);
  }

  redisReconnected(redis: RedisRole): void {
    this.redisReconnects.inc({ redis });
  }

  /**
   * Counters whose label values are a fixed set start at 0 for each: a series born at its first event has no
   * earlier sample, so rate() and increase() would not see that event.
   */
  private startFixedSeries(): void {
    for (const redis of REDIS_ROLES) {
      this.redisOutages.inc({ redis }, 0);
      this.redisReconnects.inc({ redis }, 0);
      this.redisOutageDuration.zero({ redis });
    }
    for (const kind of ['evict', 'policy', 'audit', 'purge'] as const) this.invalidations.inc({ kind }, 0);
    this.evictedKeys.inc(0);
    for (const kind of ['page', 'data'] as const)
      for (const error of ['stale-if-error', 'refresh-failed', 'unreadable'] as const) this.cacheErrors.inc({ kind, error }, 0);
    for (const where of ['process', 'cluster'] as const) this.coalesced.inc({ where }, 0);
    // The series alert rules read with rate() and increase(): present at 0, so the first event is seen.
    const pageRoutes = routeTable().map((route) => route.id);
    for (const route of new Set([...pageRoutes, ...ROUTE_AREAS])) for (const status of ALERTED_5XX) this.requests.inc({ route, status }, 0);
    for (const route of pageRoutes) this.renderAborts.inc({ route }, 0);
    for (const phase of ['headers', 'body'] as const) this.readTimeouts.inc({ phase }, 0);
  }

  /** Every purge series at 0 from the start: rate() and increase() then see the first partial purge. */
  private startPurgeSeries(edges: readonly string[]): void {
    for (const source of PURGE_SOURCES) {
      for (const outcome of PURGE_OUTCOMES) this.purges.inc({ source, outcome }, 0);
      this.purgeDuration.zero({ source });
      this.purgeInstancesMissing.inc({ source }, 0);
      for (const edge of edges) this.purgeEdgesMissing.inc({ source, edge }, 0);
    }
  }

  routes(): Router {
    const router = createRouter();
    router.get('/metrics', async (_req, res, next) => {
      try {
        res.setHeader('Cache-Control', 'no-store');
        res.type(this.registry.contentType).send(await this.registry.metrics());
      } catch (error) {
        next(error);
      }
    });
    return router;
  }
}

/** One read of Redis's memory figures shared by the collectors of a scrape (they run side by side). */
function redisMemoryOncePerScrape(read: MetricsSources['redisMemory']): () => Promise<RedisMemory | null> {
  let pending: Promise<RedisMemory | null> | null = null;
  return () => {
    if (!read) return Promise.resolve(null);
    pending ??= read()
      .catch(() => null)
      .finally(() => setImmediate(() => (pending = null)));
    return pending;
  };
}

function isCacheResult(value: unknown): value is CacheResult {
  return value === 'HIT' || value === 'MISS' || value === 'STALE' || value === 'PASS';
}

/** The site segment of a cache key (`{prefix}:{build}:{kind}:{site}:…`), for the site label. */
export function siteOfKey(key: string): string {
  return key.split(':', 4)[3] ?? '_';
}

/** Site labels are domains (what an operator reads), from the site table: bounded, never the request's Host. */
export function siteLabel(site: string | number): string {
  const id = typeof site === 'number' ? site : /^\d+$/.test(site) ? Number(site) : null;
  if (id === null) return SHARED_SITE;
  return siteById(id)?.domain ?? SHARED_SITE;
}

/** The cgroup limit when there is one (Node reads it: a container's memory limit), else the machine's memory. */
function memoryLimitBytes(): number {
  const machine = totalmem();
  const constrained = process.constrainedMemory();
  return constrained > 0 && constrained < machine ? constrained : machine;
}
