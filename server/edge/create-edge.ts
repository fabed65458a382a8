/**
 * The edge of one portal, made by `createEdge()`: what the HTTP server runs in front of the Express app. Framing
 * first, then the forwarded-header check, one reading of Accept-Encoding, canonical paths and the cached-hit path;
 * what passes them reaches the app. `edgeSecurity()` makes the headers both send.
 */
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import type { AuthSettings } from '../auth/settings';
import type { PageCache } from '../cache/page-cache';
import type { PolicySource } from '../cache/runtime-policy';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { withCanonicalAcceptEncoding } from './accept-encoding';
import { pageHits } from './page-hits';
import type { HeldHeads } from './page-response';
import { canonicalTargets } from './canonical-target';
import { compiledTrust, withForwardedHeaderCheck } from './forwarded-check';
import { withFramingPolicy } from './request-framing';
import { securityHeaders, securityOptionsOf, type SecurityHeaders } from './security';

export interface EdgeDeps {
  logger: Logger;
  metrics: Metrics;
  security: SecurityHeaders;
  pageCache: PageCache;
  cachePolicy: PolicySource;
  /** The heads held pages are written with, the chain's page handler's as well (page-response.ts). */
  heads: HeldHeads;
  /** false: every request goes through the Express chain (tests ask each way of answering a hit). */
  pageHits: boolean;
  /** The upstream is the in-process reference API: every answer says so. */
  embeddedUpstream: boolean;
  /** PREVIEW_SECRET: an editor's preview is told by a cookie it vouches for (classify.ts). */
  previewSecret?: string;
}

/** Header on every answer of a portal reading the generated reference dataset: nobody mistakes it for the news. */
export const CONTENT_SOURCE_HEADER = 'X-Content-Source';

/** Made once: the Express chain and the cached-hit path in front of it send the same headers. */
export function edgeSecurity(config: Config, upstreamUrl: string, embeddedUpstream: boolean, signIn: AuthSettings): SecurityHeaders {
  const mediaOrigins = [...config.MEDIA_ORIGINS, ...(embeddedUpstream ? [] : originOf(upstreamUrl))];
  return securityHeaders(securityOptionsOf(mediaOrigins, config.PUBLIC_ORIGIN_PROTOCOL, signIn));
}

export function createEdge(app: Express, deps: EdgeDeps): RequestListener {
  const { logger, metrics, security } = deps;
  const chain = deps.pageHits
    ? pageHits({ pageCache: deps.pageCache, cachePolicy: deps.cachePolicy, logger, metrics, heads: deps.heads, previewSecret: deps.previewSecret }, app)
    : app;
  // Every request's path is brought to its one spelling before anything else reads it.
  const handler = canonicalTargets({ logger, metrics, security }, chain);
  // The hit path and the chain's compression negotiate on the same reading of Accept-Encoding.
  // Framing first (request-framing.ts): a request whose host or length a proxy might read otherwise goes no further.
  const edge = withFramingPolicy(
    { logger, metrics, security },
    withForwardedHeaderCheck(compiledTrust(app.get('trust proxy fn')), logger, withCanonicalAcceptEncoding(handler)),
  );
  return deps.embeddedUpstream ? labelledReference(edge) : edge;
}

function labelledReference(handler: RequestListener): RequestListener {
  return (req, res) => {
    res.setHeader(CONTENT_SOURCE_HEADER, 'reference-dataset');
    handler(req, res);
  };
}

function originOf(url: string): string[] {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' ? [parsed.origin] : [];
}
