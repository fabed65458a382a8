/**
 * Prometheus metrics (prom-client) for the people who run the portal: requests by route and status, latency,
 * cache results by kind and site, upstream latency and outcomes by call, coalesced waiters, L1 bytes and
 * Redis availability. One registry per portal (not prom-client's global one), so several portals in one
 * process (tests, benchmarks) do not collide. Labels are bounded: route ids from the route table, never paths.
 */
import type { ServerResponse } from 'node:http';
import type { RequestHandler, Router } from 'express';
import { Router as createRouter } from 'express';
import client from 'prom-client';

export type CacheKind = 'page' | 'data';
export type CacheResult = 'HIT' | 'MISS' | 'STALE' | 'PASS';

export interface MetricsSources {
  l1Bytes: () => number;
  /** Null without Redis. */
  redisUp: () => Promise<boolean | null>;
}

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

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
  private readonly cache = new client.Counter({
    name: 'portal_cache_results_total',
    help: 'Cache lookups by kind (page, data), site id (_ for shared data) and result (HIT, MISS, STALE, PASS)',
    labelNames: ['kind', 'site', 'result'] as const,
    registers: [this.registry],
  });
  private readonly cacheErrors = new client.Counter({
    name: 'portal_cache_errors_total',
    help: 'Cache problems by kind: stale served because a reload failed, failed background refreshes',
    labelNames: ['kind', 'error'] as const,
    registers: [this.registry],
  });
  private readonly upstream = new client.Histogram({
    name: 'portal_upstream_duration_seconds',
    help: 'Upstream calls by call name and outcome (ok, empty: a non-zero code, unavailable, http-error, invalid: wrong shape, too-large)',
    labelNames: ['call', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly coalesced = new client.Counter({
    name: 'portal_cache_coalesced_waiters_total',
    help: 'Requests that waited for a load of the same key instead of calling upstream (process or cluster)',
    labelNames: ['where'] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricsSources) {
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
    client.collectDefaultMetrics({ register: this.registry, prefix: 'portal_' });
  }

  cacheResult(kind: CacheKind, site: string, result: CacheResult): void {
    this.cache.inc({ kind, site, result });
  }

  cacheError(kind: CacheKind, error: 'stale-if-error' | 'refresh-failed'): void {
    this.cacheErrors.inc({ kind, error });
  }

  upstreamCall(call: string, outcome: string, durationMs: number): void {
    this.upstream.observe({ call, outcome }, durationMs / 1000);
  }

  coalescedWaiter(where: 'process' | 'cluster'): void {
    this.coalesced.inc({ where });
  }

  /**
   * A finished response: counted by route and status, timed, and (a page, saying how it was served in X-Cache,
   * with its site id) counted as a cache result. `started`: performance.now() when the request came in.
   */
  requestFinished(res: ServerResponse, route: string, siteId: unknown, started: number): void {
    this.requests.inc({ route, status: String(res.statusCode) });
    const served = res.getHeader('X-Cache');
    if (isCacheResult(served) && typeof siteId === 'number') this.cacheResult('page', String(siteId), served);
    this.latency.observe({ route }, (performance.now() - started) / 1000);
  }

  /** Counts every request when it finishes; the page handler names its route in res.locals.metricsRoute. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const started = performance.now();
      res.once('finish', () => {
        const route = typeof res.locals.metricsRoute === 'string' ? res.locals.metricsRoute : areaOf(req.path);
        this.requestFinished(res, route, res.locals.siteId, started);
      });
      next();
    };
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

function isCacheResult(value: unknown): value is CacheResult {
  return value === 'HIT' || value === 'MISS' || value === 'STALE' || value === 'PASS';
}

/** Requests the page handler did not name: grouped by area, so odd paths cannot create new series. */
function areaOf(path: string): string {
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return path.slice(1);
  for (const area of ['assets', '_data', 'api', 'media']) if (path.startsWith(`/${area}/`)) return area;
  return 'other';
}

/** The site segment of a cache key (`{prefix}:{build}:{kind}:{site}:…`), for the site label. */
export function siteOfKey(key: string): string {
  return key.split(':', 4)[3] ?? '_';
}
