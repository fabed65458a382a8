/** A request id on every request (taken from a trusted-looking X-Request-Id or made here) and one JSON access-log line per response. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger';

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The caller's X-Request-Id when it looks like one, otherwise a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** The access-log line of a finished response (`started`: performance.now() when the request came in). */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse, id: string, path: string, started: number): void {
  logger.info(
    {
      reqId: id,
      method: req.method,
      path,
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      cache: res.getHeader('X-Cache'),
    },
    'request',
  );
}

export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const id = requestIdOf(req);
    const started = performance.now();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    res.on('finish', () => logRequest(logger, req, res, id, req.path, started));
    next();
  };
}
