/**
 * Wires a portal from its configuration: one factory per subsystem, each in its folder (server/README.md), then
 * the Express app over them and the edge in front of it. The caches come first (create-cache.ts: the store, purges,
 * policy, data and page caches), then the metrics that read them, the upstream (create-upstream.ts), sign-in
 * (create-auth.ts) and the edge (create-edge.ts).
 */
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import { createApp, internalApp } from './app';
import { BackgroundCheck } from './platform/background-check';
import { createAuth, type PortalAuth } from './auth/create-auth';
import { createCaches, type PortalCaches } from './cache/create-cache';
import type { CacheStore } from './cache/store';
import type { RuntimePolicy } from './cache/runtime-policy';
import { TieredStore } from './cache/tiered-store';
import { imagePipelineOf } from './images/pipeline';
import type { Config } from './platform/config';
import { createMetrics } from './create-metrics';
import type { ReadinessDeps } from './health';
import type { InternalDeps } from './internal-routes';
import type { Logger } from './platform/logger';
import type { Metrics } from './platform/metrics';
import type { ServerGuard } from './server-guard';
import { createEdge, edgeSecurity } from './edge/create-edge';
import type { SecurityHeaders } from './edge/security';
import { UsedLinks } from './preview/used-links';
import { OutageLogs } from './redis/outage-log';
import { loadAssets, type Assets } from './render/assets';
import { HeldHeads } from './edge/page-response';
import { createUpstream, type PortalUpstream } from './upstream/create-upstream';

const UPSTREAM_ANSWER_KEPT_MS = 2000;

export interface Portal {
  app: Express;
  /** What the HTTP server runs: fresh cached pages answered in front of the app (edge/page-hits.ts), the rest by it. */
  handler: RequestListener;
  /** What the internal listener runs (INTERNAL_PORT): /metrics, /_internal, /healthz, /readyz; null without one. */
  internalHandler: RequestListener | null;
  store: CacheStore;
  /** The cache policy in force (defaults plus operator overrides from Redis). */
  cachePolicy: RuntimePolicy;
  assets: Assets;
  /** This instance as the coherence bus and the purge acknowledgements name it. */
  instance: { id: string; build: string };
  /** The read deadline and CONNECT answer of every listener of this portal (server-guard.ts). */
  serverGuard: ServerGuard;
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

/** One portal's subsystems, each made by the factory in its folder. */
interface Subsystems {
  logger: Logger;
  metrics: Metrics;
  caches: PortalCaches;
  upstream: PortalUpstream;
  auth: PortalAuth;
  security: SecurityHeaders;
  /** The content API's answer to /readyz's background check. */
  upstreamCheck: BackgroundCheck<boolean>;
}

export function createPortal(options: PortalOptions): Portal {
  const { config, upstreamUrl } = options;
  const embedded = options.embeddedUpstream ?? false;
  const assets = options.assets ?? loadAssets();
  // Every line of this instance names the build it runs: an error or a slow request is matched to a deploy.
  const logger = options.logger.child({ build: assets.buildId });
  // The metrics read the caches' stores, and the caches report to them: until they exist nothing has run to report.
  let metrics: Metrics | null = null;
  const outages = new OutageLogs(logger, () => metrics, options.outageLogEveryMs);
  const caches = createCaches({ config, logger, build: assets.buildId, metrics: () => metrics, outages, announceEveryMs: options.announceEveryMs });
  metrics = createMetrics(caches, assets.buildId);
  const upstream = createUpstream({ config, logger, metrics, baseUrl: upstreamUrl, caches, failureLogEveryMs: options.outageLogEveryMs });
  const cacheClient = caches.redis?.client ?? null;
  const auth = createAuth({ config, logger, outages, cacheClient, upstream: upstream.client, embeddedUpstreamUrl: embedded ? upstreamUrl : undefined });
  const security = edgeSecurity(config, upstreamUrl, embedded, auth.settings);
  const upstreamCheck = upstreamReadiness(upstream, config);
  let draining = false;
  return {
    ...handlersOf(options, assets, { logger, metrics, caches, upstream, auth, security, upstreamCheck }, () => draining),
    serverGuard: { readTimeoutMs: config.REQUEST_READ_TIMEOUT_MS, readTimedOut: (phase) => metrics.readTimedOut(phase) },
    store: caches.store,
    cachePolicy: caches.policy,
    assets,
    instance: caches.instance,
    startDraining: () => {
      draining = true;
    },
    listening: (url) => caches.announce(url),
    // Upstream first (its flag watch may still purge), then the caches, then the sessions' own Redis.
    close: async () => {
      upstreamCheck.stop();
      outages.stop();
      await upstream.close();
      await caches.close();
      auth.close();
    },
  };
}

/** What the listeners run: the Express app, the edge in front of it, and the internal listener's own app. */
function handlersOf(options: PortalOptions, assets: Assets, parts: Subsystems, isDraining: () => boolean): Pick<Portal, 'app' | 'handler' | 'internalHandler'> {
  const { config } = options;
  const { logger, metrics, security, caches } = parts;
  const internal = internalOf(config, parts);
  const readiness = readinessOf(options, parts, isDraining);
  const heads = new HeldHeads(security);
  const app = appOf(options, assets, parts, { internal, readiness, heads });
  const handler = createEdge(app, {
    logger,
    metrics,
    security,
    heads,
    pageCache: caches.pageCache,
    cachePolicy: caches.policy,
    pageHits: options.pageHits !== false,
    embeddedUpstream: options.embeddedUpstream ?? false,
    ...(config.PREVIEW_SECRET ? { previewSecret: config.PREVIEW_SECRET } : {}),
  });
  // With INTERNAL_PORT: /metrics, /_internal and the probes on a listener of their own (internal-listener.ts).
  const internalHandler = config.INTERNAL_PORT === undefined ? null : internalApp({ metrics, internal, readiness, config });
  return { app, handler, internalHandler };
}

/** The Express app over the subsystems (app.ts). */
function appOf(
  options: PortalOptions,
  assets: Assets,
  parts: Subsystems,
  wiring: { internal: InternalDeps; readiness: ReadinessDeps; heads: HeldHeads },
): Express {
  const { config } = options;
  const { logger, metrics, caches, upstream, auth } = parts;
  return createApp({
    internal: wiring.internal,
    auth: { settings: auth.settings, sessions: auth.sessions, accounts: auth.accounts },
    upstream: upstream.client,
    config,
    logger,
    cache: caches.cache,
    keys: caches.keys,
    content: upstream.content,
    pageCache: caches.pageCache,
    cachePolicy: caches.policy,
    metrics,
    assets,
    security: parts.security,
    heads: wiring.heads,
    ...(options.embeddedUpstream ? { embeddedMediaUpstream: options.upstreamUrl } : {}),
    images: imagePipelineOf(config, options.upstreamUrl, options.embeddedUpstream ?? false),
    ...(options.embeddedUpstream ? {} : { contentApiOrigin: new URL(options.upstreamUrl).origin }),
    readiness: wiring.readiness,
    preview: config.PREVIEW_SECRET
      ? { secret: config.PREVIEW_SECRET, usedLinks: new UsedLinks(caches.redis ? { client: caches.redis.client, prefix: config.CACHE_PREFIX } : null) }
      : null,
  });
}
/** /_internal: this instance's L1 for `portal-cache inspect`, and the publish hook. */
function internalOf(config: Config, parts: Subsystems): InternalDeps {
  const { l1, instance, purges } = parts.caches;
  return {
    l1: l1 && {
      peek: (key) => (l1 instanceof TieredStore ? l1.peekL1(key) : l1.peek(key)),
      trusted: () => (l1 instanceof TieredStore ? l1.trustsL1() : true),
    },
    token: config.INTERNAL_TOKEN,
    instance,
    purge: { secret: config.PURGE_SECRET, purges, logger: parts.logger, metrics: parts.metrics },
  };
}

/** What /readyz checks: the stores and Redis, the content API, and whether this instance drains. */
function readinessOf(options: PortalOptions, parts: Subsystems, isDraining: () => boolean): ReadinessDeps {
  const { store, health, tiered } = parts.caches;
  const { sessionsState } = parts.auth;
  return {
    store,
    redisState: health ? () => health.state() : null,
    sessionsState,
    isDraining,
    cacheMode: () => tiered?.mode() ?? null,
    content: options.embeddedUpstream ? 'reference-dataset' : 'upstream',
    publishHook: options.config.PURGE_SECRET ? 'on' : 'off',
    upstreamUp: () => parts.upstreamCheck.current(),
  };
}

/** The content API as /readyz reports it: a flag call at most every two seconds, down while one is unanswered past its timeout. */
function upstreamReadiness(upstream: PortalUpstream, config: Config): BackgroundCheck<boolean> {
  const answers = async (): Promise<boolean> =>
    (await upstream.client.request({ method: 'GET', path: '/api/common/grey_mode', call: 'readiness' })).outcome !== 'unavailable';
  return new BackgroundCheck(answers, { maxAgeMs: UPSTREAM_ANSWER_KEPT_MS, boundMs: config.UPSTREAM_TIMEOUT_MS, failed: false });
}
