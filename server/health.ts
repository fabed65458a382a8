/**
 * /healthz: the process is alive. /readyz: can it serve well? 503 only while draining (so the load balancer
 * stops sending); a dead Redis or upstream is 'degraded' with 200, because pages still render (uncached or
 * stale) and pulling every instance out would turn a cache outage into a site outage.
 *
 * Both answer at once from state that background checks keep (background-check.ts, redis/health.ts): nothing here
 * awaits a dependency, so a frozen Redis or a stalled content API never holds a probe past the load balancer's
 * timeout (the shipped VCL's is 1 s) and never takes a portal that can serve out of rotation.
 */
import { Router } from 'express';
import type { CacheStore } from './cache/store';
import type { RedisState } from './redis/health';

export interface ReadinessDeps {
  store: CacheStore;
  /** Null without Redis. On a cluster: every master answers and every slot is served (server/redis/health.ts). */
  redisState: (() => RedisState) | null;
  /** Null unless SESSION_REDIS_URL names a Redis of its own for sessions and sign-ins. */
  sessionsState?: (() => RedisState) | null;
  /** The content API's last answer to the background check (a flag call, as cheap as any). */
  upstreamUp: () => boolean;
  isDraining: () => boolean;
  /** How L1 is used now (coherent, bypass, outage, outage-short-ttl); null without Redis in front of an L1. */
  cacheMode?: () => string | null;
  /** Where pages come from: 'reference-dataset' only when the generated dataset runs in-process (never in production). */
  content: ContentKind;
  /** Whether the publish hook answers (PURGE_SECRET set): 'off' does not fail readiness, corrections just wait for TTLs. */
  publishHook: 'on' | 'off';
}

export type ContentKind = 'upstream' | 'reference-dataset';

export function healthRoutes(deps: ReadinessDeps): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });

  router.get('/readyz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (deps.isDraining()) {
      res.status(503).json({ status: 'draining' });
      return;
    }
    const redis = deps.redisState?.() ?? 'not-configured';
    const sessions = deps.sessionsState?.() ?? null;
    const upstream = deps.upstreamUp() ? 'up' : 'down';
    // Read-only (a replica after a failover): hits are served, nothing new is stored, sign-in is refused. Degraded,
    // still 200: every instance sees the same Redis, so taking them out would take the site down (operations.md).
    // The same for a session Redis of its own: pages are served, sign-in is refused (a 503 page saying so).
    const degraded = (redis !== 'up' && redis !== 'not-configured') || (sessions !== null && sessions !== 'up');
    const notReady = degraded || upstream === 'down';
    // l1: how this instance's L1 serves now (tiered-store.ts), e.g. outage-short-ttl through a long Redis outage.
    const l1 = deps.cacheMode?.() ?? null;
    res.json({
      status: notReady ? 'degraded' : 'ready',
      checks: { redis, ...(sessions ? { sessions } : {}), upstream, cache: deps.store.kind, ...(l1 ? { l1 } : {}) },
      content: deps.content,
      publishHook: deps.publishHook,
    });
  });

  return router;
}
