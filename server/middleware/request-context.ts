/** A request id on every request (taken from a trusted-looking X-Request-Id or made here) and one JSON access-log line per response. */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger';

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    res.on('finish', () => {
      logger.info(
        {
          reqId: id,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          cache: res.getHeader('X-Cache'),
        },
        'request',
      );
    });
    next();
  };
}
