/**
 * A deadline for reading a request's body, for every route that reads one: a client that trickles its body
 * (slowloris) or announces more than it sends gets a 408 once `deadlineMs` have passed since its headers, with
 * `Connection: close`, and its connection goes; the handler waiting for the body never runs on. Headers have their
 * deadline in the HTTP server (server-guard.ts), which also closes a connection whose body is still arriving after
 * its answer went.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/** Whether a body is still to come: announced by Content-Length or chunked, and not all read yet. */
function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** `onLate`: told of each 408 (a metric); a route with a shorter deadline of its own counts its refusals its own way. */
export function readDeadline(deadlineMs: number, onLate: () => void = () => undefined): RequestHandler {
  return (req, res, next) => {
    if (!bodyPending(req)) {
      next();
      return;
    }
    const timer = setTimeout(() => {
      if (req.complete || res.headersSent) return;
      onLate();
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Connection', 'close');
      res.status(408).json({ error: `body: not received within ${deadlineMs / 1000} s` });
      res.once('finish', () => req.socket.destroy());
    }, deadlineMs);
    timer.unref();
    const done = () => clearTimeout(timer);
    res.once('close', done);
    res.once('finish', done);
    next();
  };
}
