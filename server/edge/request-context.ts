/** A request id on every request (taken from a trusted-looking X-Request-Id or made here) and one JSON access-log line per response. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import proxyaddr from 'proxy-addr';
import { resolveSite } from '../../shared/sites';
import type { Logger } from '../platform/logger';
import { areaOf } from '../platform/route-area';

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The caller's X-Request-Id when it looks like one, otherwise a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** Probes and scrapes (every few seconds, from the orchestrator and Prometheus): logged at debug, not info. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Longest path-with-query, referer and user agent a line carries: a reader chooses them, a log line stays a line. */
const MAX_TARGET = 512;
const MAX_REFERER = 256;
const MAX_AGENT = 256;

/**
 * Query parameter names whose value is a secret or a credential (a sign-in callback's code and state, a reset token,
 * an API key): the line keeps the name, never the value. Short generic names count only whole (`code`, not
 * `codex`; `key`, not `keyword`); names that say what they hold count anywhere in the name (`auth_token`,
 * `accessToken`, `sessionid`, `client_secret`, `X-Amz-Signature`). Read as the server reads them: case-insensitive
 * and percent-decoded (`%74oken` is `token`).
 */
const SECRET_NAME = /^(?:code|state|ticket|key|sig|auth|pwd)$|token|secret|passw|signature|session|api_?key|jwt|credential/i;

function isSecretName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: the name as written.
  }
  return SECRET_NAME.test(decoded.trim());
}

/** `name=value` pairs of a query (`&` or `;` between them) with each secret value replaced; the fragment kept. */
function redactQuery(query: string): string {
  const hash = query.indexOf('#');
  const params = hash < 0 ? query : query.slice(0, hash);
  const fragment = hash < 0 ? '' : query.slice(hash);
  return params.replace(/([^&;=]*)=([^&;]*)/g, (pair: string, name: string) => (isSecretName(name) ? `${name}=[redacted]` : pair)) + fragment;
}

/**
 * A path or URL with the values of its secret query parameters replaced (and a URL's user:password@, which a
 * crafted Referer may carry), then cut to `max` characters.
 */
export function loggableTarget(target: string, max: number): string {
  const withoutUser = target.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1[redacted]@');
  const query = withoutUser.indexOf('?');
  const redacted = query < 0 ? withoutUser : withoutUser.slice(0, query + 1) + redactQuery(withoutUser.slice(query + 1));
  return redacted.length > max ? `${redacted.slice(0, max - 1)}…` : redacted;
}

const TRUST = Symbol('trust proxy');

/** Express's compiled `trust proxy` (`app.get('trust proxy fn')`): whether the hop at `addr` may be believed. */
export type TrustsPeer = (addr: string, hop: number) => boolean;

/** Remembers the portal's TRUST_PROXY reading on the request, for its log line's client address (forwarded-check.ts). */
export function rememberTrust(req: IncomingMessage, trusts: TrustsPeer): void {
  (req as IncomingMessage & { [TRUST]?: TrustsPeer })[TRUST] = trusts;
}

/** The client as TRUST_PROXY lets the portal believe it: the peer, or the nearest forwarded hop it does not trust. */
function clientOf(req: IncomingMessage): string {
  const trusts = (req as IncomingMessage & { [TRUST]?: TrustsPeer })[TRUST];
  if (!trusts) return req.socket?.remoteAddress ?? '';
  try {
    return proxyaddr(req, trusts);
  } catch {
    return req.socket?.remoteAddress ?? '';
  }
}

/** What the hit path knows of a response written with one writeHead (no header left on it to ask). */
export interface SentFacts {
  cache: string;
  length: number | undefined;
  /** The route label (metrics.ts), which the chain notes in res.locals instead. */
  route?: string;
}

/**
 * The access-log line of a finished response (`started`: performance.now() when the request came in): the
 * request id; method; the path with its query (`target`, as the client sent it: secret parameters redacted,
 * bounded); status; time; cache result; the route (the metrics' label); the site (its domain and id from the
 * site table) and the Host as sent (bounded: it is the reader's to choose); the client address as TRUST_PROXY
 * lets the portal believe it; the referer (redacted and bounded like the path); bytes sent (head and body); the
 * user agent; and the upstream time the request's loaders waited for (pages rendered here; absent for hits). The
 * build comes with the logger (portal.ts).
 */
export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  target: string,
  started: number,
  sent: SentFacts | null = null,
): void {
  const query = target.indexOf('?');
  const level = PROBE_PATHS.has(query < 0 ? target : target.slice(0, query)) ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const locals = (res as ServerResponse & { locals?: Record<string, unknown> }).locals;
  const upstreamMs = locals?.upstreamMs;
  const route = sent?.route ?? locals?.metricsRoute;
  const site = resolveSite(req.headers.host);
  const referer = req.headers.referer;
  logger[level](
    {
      reqId: id,
      method: req.method,
      path: loggableTarget(target, MAX_TARGET),
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      cache: sent ? sent.cache : res.getHeader('X-Cache'),
      // Every line names its route: a page's id, or the area the metrics count it under (`_data`, `api`…).
      route: typeof route === 'string' ? route : areaOf(query < 0 ? target : target.slice(0, query)),
      site: site.domain,
      siteId: site.id,
      host: (req.headers.host ?? '').slice(0, 100),
      client: clientOf(req),
      bytes: bytesSent(req, res, sent ? sent.length : res.getHeader('Content-Length')),
      ...(referer ? { referer: loggableTarget(referer, MAX_REFERER) } : {}),
      ua: (req.headers['user-agent'] ?? '').slice(0, MAX_AGENT),
      ...(typeof upstreamMs === 'number' ? { upstreamMs } : {}),
    },
    'request',
  );
}

/** Bytes written on the socket for this response: the count at its end less the count when it came in. */
function bytesSent(req: IncomingMessage, res: ServerResponse, contentLength: unknown): number | undefined {
  const before = (req as IncomingMessage & { bytesWrittenBefore?: number }).bytesWrittenBefore;
  const now = res.socket?.bytesWritten ?? req.socket?.bytesWritten;
  if (typeof before !== 'number' || typeof now !== 'number') {
    const length = Number(contentLength);
    return Number.isFinite(length) ? length : undefined;
  }
  return now - before;
}

/** Notes the socket's byte count as a request comes in, so its log line can tell what this response sent. */
export function markBytesBefore(req: IncomingMessage): void {
  (req as IncomingMessage & { bytesWrittenBefore?: number }).bytesWrittenBefore = req.socket?.bytesWritten ?? 0;
}

export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const id = requestIdOf(req);
    const started = performance.now();
    markBytesBefore(req);
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    res.on('finish', () => logRequest(logger, req, res, id, (req as Request).originalUrl, started));
    next();
  };
}
