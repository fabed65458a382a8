/**
 * The Express application: middleware in the order of the request flow of docs/architecture.md, then health, assets, data
 * endpoints and pages. Dependencies come in ready-made (see portal.ts), so tests can build an app around
 * their own Redis and upstream.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { constants as zlib } from 'node:zlib';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Cache } from './cache/cache';
import type { KeySpace } from './cache/keys';
import type { PageCache } from './cache/page-cache';
import type { PolicySource } from './cache/runtime-policy';
import type { AccountClient } from './auth/account-client';
import { apiProxy } from './api-proxy/proxy';
import { readerAccounts } from './auth/reader-account';
import { setReaderCookie } from './auth/cookies';
import { sameOriginCheck } from './auth/csrf';
import { readerStyleRoutes } from './auth/reader-style';
import { attachSession, authRoutes } from './auth/routes';
import type { Sessions } from './auth/sessions';
import type { AuthSettings } from './auth/settings';
import type { Config } from './platform/config';
import { healthRoutes, type ReadinessDeps } from './health';
import { internalRoutes, type InternalDeps } from './internal-routes';
import type { Metrics } from './platform/metrics';
import type { Logger } from './platform/logger';
import { requestContext } from './edge/request-context';
import { compressionAsForGet } from './edge/head-as-get';
import { dataRateLimit } from './edge/rate-limit';
import { readDeadline } from './edge/read-deadline';
import { securityMiddleware, type SecurityHeaders } from './edge/security';
import { PROJECT_ROOT, type Assets } from './render/assets';
import { qrImageRoutes } from './qr-images';
import { dataRoutes } from './render/data-endpoints';
import { STORE_RETRY_AFTER_SECONDS } from './redis/store-unavailable';
import { bareErrorDocument } from './platform/html';
import { previewRoutes } from './preview/preview-routes';
import type { UsedLinks } from './preview/used-links';
import { createPageHandler } from './render/page-handler';
import type { HeldHeads } from './edge/page-response';
import { BAD_REQUEST_MESSAGE, UNAVAILABLE_MESSAGE } from './render/page-status';
import { TEXT } from '../shared/constants';
import { feedRoutes } from './seo/routes';
import type { ContentService } from './upstream/content-service';
import type { UpstreamClient } from './upstream/http-client';
import { mediaProxy } from './upstream/media-proxy';
import { imageRoutes } from './images/image-routes';
import type { ImagePipeline, ResizerPipeline } from '../shared/image-pipeline';
import { visitStatsScriptUrl } from '../shared/visit-stats';

export interface AppDeps {
  config: Pick<
    Config,
    | 'RENDER_TIMEOUT_MS'
    | 'PUBLIC_ORIGIN_PROTOCOL'
    | 'MOBILE_DETAIL_URL'
    | 'DATA_RATE_LIMIT_PER_MINUTE'
    | 'TRUST_PROXY'
    | 'WECHAT_JSSDK_URL'
    | 'VISIT_STATS_IDS'
    | 'VISIT_STATS_SCRIPT_URL'
    | 'INTERNAL_PORT'
    | 'REQUEST_READ_TIMEOUT_MS'
    | 'IMAGE_SOURCE_MAX_BYTES'
    | 'IMAGE_SOURCE_MAX_PIXELS'
    | 'IMAGE_SOURCE_TIMEOUT_MS'
    | 'IMAGE_ALLOW_PRIVATE_SOURCES'
  >;
  /** Where pictures are resized (server/images/pipeline.ts); the embedded resizer's routes when it is the portal's. */
  images: ImagePipeline;
  /** The content API's origin, whose pictures the resizer reads even on a private address (the portal reads its API there). */
  contentApiOrigin?: string;
  cache: Cache;
  keys: KeySpace;
  logger: Logger;
  content: ContentService;
  pageCache: PageCache;
  cachePolicy: PolicySource;
  assets: Assets;
  readiness: ReadinessDeps;
  metrics: Metrics;
  /** Security headers (CSP with media and sign-in origins), made once per portal; the nonce is per response. */
  security: SecurityHeaders;
  /** The heads held pages are written with, shared with the hit path in front of Express (edge/page-response.ts). */
  heads: HeldHeads;
  /** Embedded mode: serve the in-process reference API's /media under this origin. */
  embeddedMediaUpstream?: string;
  auth: { settings: AuthSettings; sessions: Sessions; accounts: AccountClient };
  /** The content API client the same-origin /api proxy forwards through. */
  upstream: UpstreamClient;
  /** /_internal/l1, for the cache CLI. */
  internal: InternalDeps;
  /** The editors' preview (docs/preview.md); null without PREVIEW_SECRET (its routes are then the site's 404). */
  preview: { secret: string; usedLinks: UsedLinks } | null;
}

const ASSET_MAX_AGE_MS = 365 * 24 * 3600 * 1000;
const PUBLIC_MAX_AGE_MS = 24 * 3600 * 1000;
const PUBLIC_DIR = path.join(PROJECT_ROOT, 'public');

/**
 * The internal listener's app (INTERNAL_PORT): /metrics, /_internal (the cache CLI), /healthz and /readyz, on a
 * port the Ingress does not expose, for Prometheus, the CLI and the kubelet. /_internal keeps its own check
 * (this machine or INTERNAL_TOKEN), since the internal network is not one machine.
 */
export function internalApp(deps: Pick<AppDeps, 'metrics' | 'internal' | 'readiness'> & { config: Pick<Config, 'REQUEST_READ_TIMEOUT_MS'> }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(readDeadline(deps.config.REQUEST_READ_TIMEOUT_MS, () => deps.metrics.readTimedOut('body')));
  app.use(healthRoutes(deps.readiness));
  app.use(deps.metrics.routes());
  app.use(internalRoutes(deps.internal));
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('not found: this port serves /metrics, /_internal, /healthz and /readyz\n');
  });
  return app;
}

export function createApp(deps: AppDeps): Express {
  const { logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  // Page ETags are computed on the cached form; Express's would hash each response's unique nonce.
  app.set('etag', false);
  // Only the named proxies may say who the client is (X-Forwarded-For); by default nobody may.
  app.set('trust proxy', deps.config.TRUST_PROXY === '' ? false : deps.config.TRUST_PROXY);

  app.use(requestContext(logger));
  // Connection: close once the listener has stopped is the HTTP server's (http-server.ts), for every response.
  app.use(deps.metrics.middleware());
  // Before anything reads a body: a client that trickles one is answered 408 at the deadline, not waited for.
  app.use(readDeadline(deps.config.REQUEST_READ_TIMEOUT_MS, () => deps.metrics.readTimedOut('body')));
  app.use(securityMiddleware(deps.security));
  // Z_SYNC_FLUSH after every write: a streamed shell reaches the reader now, not when zlib's buffer fills.
  // A HEAD gets the headers of its GET, a 304 the Vary of its 200 (head-as-get.ts).
  app.use(compressionAsForGet(compression({ flush: zlib.Z_SYNC_FLUSH })));
  app.use(cookieParser());

  app.use(healthRoutes(deps.readiness));
  // With INTERNAL_PORT, /metrics and /_internal answer only there (internalApp): the public port has no such path.
  if (deps.config.INTERNAL_PORT === undefined) {
    app.use(deps.metrics.routes());
    app.use(internalRoutes(deps.internal));
  }
  app.use(qrImageRoutes());
  app.use('/assets', express.static(deps.assets.directory, { immutable: true, maxAge: ASSET_MAX_AGE_MS, index: false, fallthrough: false }));
  if (deps.embeddedMediaUpstream) app.use('/media', mediaProxy(deps.embeddedMediaUpstream));
  if (deps.images.kind === 'resizer') app.use(resizerRoutes(deps, deps.images));
  app.use(publicFiles(PUBLIC_DIR));
  // Per-client limits where scripts and bots hammer: navigation data, the API proxy, the sign-in flow.
  for (const prefix of ['/_data', '/api', '/login']) app.use(prefix, dataRateLimit(deps.config.DATA_RATE_LIMIT_PER_MINUTE, logger));
  // Sessions are looked up only past static files: an asset request never costs a Redis round trip.
  app.use(attachSession(deps.auth.sessions, logger));
  // The main site's callback origin is the portal's own even when it is not PUBLIC_ORIGIN_PROTOCOL://www.….
  const sameOrigin = sameOriginCheck(deps.config.PUBLIC_ORIGIN_PROTOCOL, [deps.auth.settings.callbackOrigin]);
  app.use(authRoutes({ ...deps.auth, logger, sameOrigin }));
  if (deps.preview) app.use(previewRoutes({ ...deps.preview, secureCookies: deps.auth.settings.secureCookies, logger }));
  app.use(readerStyleRoutes(deps.auth.settings.secureCookies));
  app.use(
    apiProxy({
      upstream: deps.upstream,
      sessions: deps.auth.sessions,
      secureCookies: deps.auth.settings.secureCookies,
      sessionTtlSeconds: deps.auth.settings.sessionTtlSeconds,
      logger,
      sameOrigin,
    }),
  );
  const accountFor = readerAccounts(deps.upstream, deps.auth.sessions, deps.auth.settings.secureCookies, logger);
  const previewSecret = deps.preview?.secret;
  app.use(dataRoutes(deps.content, logger, accountFor, { mobileDetailUrl: deps.config.MOBILE_DETAIL_URL, ...(previewSecret ? { previewSecret } : {}) }));
  app.use(feedRoutes({ cache: deps.cache, keys: deps.keys, content: deps.content, protocol: deps.config.PUBLIC_ORIGIN_PROTOCOL }));
  const pages = createPageHandler({
    content: deps.content,
    pageCache: deps.pageCache,
    cachePolicy: deps.cachePolicy,
    assets: deps.assets,
    heads: deps.heads,
    logger,
    renderTimeoutMs: deps.config.RENDER_TIMEOUT_MS,
    onRender: (route, seconds, outcome) => deps.metrics.renderFinished(route, seconds, outcome),
    publicProtocol: deps.config.PUBLIC_ORIGIN_PROTOCOL,
    visitStatsScript: (site) => {
      const id = deps.config.VISIT_STATS_IDS.get(site.domain);
      return id ? visitStatsScriptUrl(deps.config.VISIT_STATS_SCRIPT_URL, id) : null;
    },
    accountFor,
    ...(deps.preview ? { previewSecret: deps.preview.secret } : {}),
    mobileDetailUrl: deps.config.MOBILE_DETAIL_URL,
    wechatJsSdkUrl: deps.config.WECHAT_JSSDK_URL,
    images: deps.images,
    signInAvailable: deps.auth.settings.appId !== null,
    rememberReader: (req, res, user) => setReaderCookie(req, res, user, deps.auth.settings.secureCookies, deps.auth.settings.sessionTtlSeconds),
  });
  app.get(/.*/, pages);

  app.use((req, res) => {
    res
      .status(405)
      .setHeader('Allow', 'GET, HEAD')
      .json({ error: `${req.method} is not allowed here` });
  });
  app.use(errorHandler(logger));
  return app;
}

/** The embedded resizer's /img/ (server/images/image-routes.ts), counted in the portal's metrics. */
function resizerRoutes(deps: AppDeps, pipeline: ResizerPipeline): RequestHandler {
  return imageRoutes({
    pipeline,
    cache: deps.cache,
    keys: deps.keys,
    source: {
      maxBytes: deps.config.IMAGE_SOURCE_MAX_BYTES,
      timeoutMs: deps.config.IMAGE_SOURCE_TIMEOUT_MS,
      allowPrivate: deps.config.IMAGE_ALLOW_PRIVATE_SOURCES,
    },
    maxPixels: deps.config.IMAGE_SOURCE_MAX_PIXELS,
    ...(deps.embeddedMediaUpstream ? { embeddedMediaUpstream: deps.embeddedMediaUpstream } : {}),
    ...(deps.contentApiOrigin ? { contentApiOrigin: deps.contentApiOrigin } : {}),
    onOutcome: (outcome) => deps.metrics.imageServed(outcome),
    onFailure: (reason) => deps.metrics.imageFailed(reason),
  });
}

/**
 * The files of public/ (favicon and the like). They ship with the build, so they are listed once at start: any
 * other path (every page) goes on without a file-system stat and the not-found error object serve-static would
 * make for it, which on a cached page cost more than the rest of the request.
 */
function publicFiles(directory: string): RequestHandler {
  // No directory redirects: /search/.. must not become a 301 to a path nobody asked for.
  const serve = express.static(directory, { index: false, redirect: false, maxAge: PUBLIC_MAX_AGE_MS });
  const files = new Set(
    readdirSync(directory, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`),
  );
  return (req, res, next) => (files.has(req.path) ? serve(req, res, next) : next());
}

/** Last stop for errors: logged with the request id, answered without a stack trace. */
function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const status = httpStatusOf(error);
    // A 503 (a store that cannot answer: server/redis/store-unavailable.ts) is a state of the system, not a bug.
    if (status === 503) logger.warn({ err: error, reqId: res.locals.requestId, path: req.path }, 'request refused: unavailable');
    else if (status >= 500) logger.error({ err: error, reqId: res.locals.requestId, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    if (status === 503) res.setHeader('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
    const message = status === 404 ? TEXT.notFound : status === 503 ? UNAVAILABLE_MESSAGE : status < 500 ? BAD_REQUEST_MESSAGE : TEXT.errorDefault;
    res.status(status).type('html').send(bareErrorDocument(status, message));
  };
}

function httpStatusOf(error: unknown): number {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}
