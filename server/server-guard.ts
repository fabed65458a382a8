/**
 * What a portal's listeners answer before any handler runs: every request has a read deadline (its headers within
 * REQUEST_READ_TIMEOUT_MS of its first byte, its body within that of its headers, middleware/read-deadline.ts), a
 * CONNECT gets a 501 (the portal is no proxy), and a request Node's parser refuses (a method it does not know, a
 * header block too large, broken syntax) gets its status. Node's own defaults would close a CONNECT with no status
 * at all and wait 5 minutes for a request; an edge in front turns a bare close into a 503 that monitors read as
 * the site being down.
 */
import http, { type RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ReadPhase } from './platform/metrics';

export interface ServerGuard {
  /** REQUEST_READ_TIMEOUT_MS. */
  readTimeoutMs: number;
  /** A request not read in time, answered 408 (the metric). */
  readTimedOut(phase: ReadPhase): void;
}

/**
 * How often Node looks for requests past their deadline (its default, 30 s, would let a 10 s deadline run to 40).
 * A look is a walk over the requests being read, not over every connection.
 */
export const DEADLINE_CHECK_MS = 500;

/**
 * After its answer went, a request whose body still arrives is cut at this many read deadlines from its first byte
 * (Node's requestTimeout): later than the body deadline of the app, which answers first where a handler waits.
 */
const BACKSTOP_DEADLINES = 2;

interface LastRequest {
  req: http.IncomingMessage;
  res: http.ServerResponse;
}

export function guardedServer(handler: RequestListener, guard: ServerGuard): http.Server {
  const server = http.createServer({ connectionsCheckingInterval: DEADLINE_CHECK_MS }, handler);
  server.headersTimeout = guard.readTimeoutMs;
  server.requestTimeout = BACKSTOP_DEADLINES * guard.readTimeoutMs;
  // The last request read on each connection: past the deadline, one still arriving is a body, else headers are.
  const lastRequest = new WeakMap<Duplex, LastRequest>();
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => lastRequest.set(req.socket, { req, res }));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, guard, lastRequest.get(socket)));
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => undefined);
    answerRaw(socket, 501, 'Not Implemented', 'CONNECT: this server is not a proxy');
  });
  return server;
}

/** The status of what Node's parser refused, or of a request not read in time. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, guard: ServerGuard, last: LastRequest | undefined): void {
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const bodyArriving = last !== undefined && !last.req.complete;
  if (timedOut) guard.readTimedOut(bodyArriving ? 'body' : 'headers');
  // An answer on this connection has begun (a refusal that closes it, bytes after it the parser cannot read), or
  // went while its body still arrives: nothing more can be said on it, as Node itself does.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (inFlight?.headersSent || (bodyArriving && last.res.headersSent)) {
    socket.destroy();
    return;
  }
  if (timedOut) answerRaw(socket, 408, 'Request Timeout', `request not received within ${guard.readTimeoutMs / 1000} s`);
  else if (error.code === 'HPE_INVALID_METHOD') answerRaw(socket, 501, 'Not Implemented', 'method not implemented');
  else if (error.code === 'HPE_HEADER_OVERFLOW') answerRaw(socket, 431, 'Request Header Fields Too Large', 'request headers too large');
  else answerRaw(socket, 400, 'Bad Request', 'malformed request');
}

/** A whole answer written on the socket, which then closes: no request of it is read on. */
function answerRaw(socket: Duplex, status: number, title: string, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${title}: ${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body,
    () => socket.destroy(),
  );
}
