/** A request id on every request (taken from a trusted-looking X-Request-Id or made here) and one JSON access-log line per response. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { resolveSite } from '../../shared/sites';
import type { Logger } from '../logger';

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The caller's X-Request-Id when it looks like one, otherwise a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** Probes and scrapes (every few seconds, from the orchestrator and Prometheus): logged at debug, not info. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The access-log line of a finished response (`started`: performance.now() when the request came in): the
 * request id, method, path, status, time, cache result, the site (its domain from the site table: the raw Host
 * is attacker-chosen and unbounded), bytes sent (head and body), the user agent, and the upstream time the
 * request's loaders waited for (pages rendered here; absent for hits).
 */
export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  path: string,
  started: number,
  /** What a response written with one writeHead (no header left on it to ask) said in X-Cache and Content-Length. */
  sent: { cache: string; length: number | undefined } | null = null,
): void {
  const level = PROBE_PATHS.has(path) ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const locals = (res as ServerResponse & { locals?: Record<string, unknown> }).locals;
  const upstreamMs = locals?.upstreamMs;
  logger[level](
    {
      reqId: id,
      method: req.method,
      path,
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      cache: sent ? sent.cache : res.getHeader('X-Cache'),
      site: resolveSite(req.headers.host).domain,
      bytes: bytesSent(req, res, sent ? sent.length : res.getHeader('Content-Length')),
      ua: req.headers['user-agent'] ?? '',
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
    res.on('finish', () => logRequest(logger, req, res, id, req.path, started));
    next();
  };
}
