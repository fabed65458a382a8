/**
 * The HTTP server around a portal, with graceful shutdown: on SIGTERM readiness turns 503; after
 * SHUTDOWN_DELAY_MS the listener stops accepting, in-flight responses finish, and the process exits 0 (or closes
 * what is left when the drain timeout runs out). No request that reached an accepted connection is dropped:
 * connections stay keep-alive during the delay, the listener closes only once the kernel's accept queue holds
 * none of its connections (accept-queue.ts: under CPU load Node accepts slowly), answers then say
 * `Connection: close`, and a connection between two requests is closed only after IDLE_CLOSE_MS of silence
 * (the next request may already be on the wire). docs/operations.md has the sequence.
 */
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { queuedConnections } from './accept-queue';
import { guardedServer } from './server-guard';
import type { Logger } from './platform/logger';
import type { Portal } from './portal';

export interface RunningServer {
  server: http.Server;
  url: string;
  /** Drains and closes; resolves when every connection is gone. */
  shutdown(): Promise<void>;
}

/**
 * How long a connection must have been silent (no request, no byte) before a draining portal closes it. Closing
 * one races its client's next request (which then meets a reset), so the wait is long enough that a client still
 * sending is not taken for an idle one on a machine under load: with 1 s, 28 of 40 clients busy sending beside
 * `stress-ng --cpu 4` and a CI run were silent that long at once and lost a request (drain-under-load.test.ts);
 * a truly idle connection (a balancer's pool) holds the drain up by this much, well inside SHUTDOWN_TIMEOUT_MS.
 */
export const IDLE_CLOSE_MS = 5000;
const SWEEP_EVERY_MS = 100;
/** How often a draining server looks at its accept queue before closing the listener. */
const QUEUE_POLL_MS = 10;

interface ConnectionState {
  /** When its last response ended (or it was accepted); null while a request is being answered. */
  idleSince: number | null;
  /** Bytes read by then: more since means a request has begun arriving. */
  bytesAtIdle: number;
}

/** The server's open connections and which of them are between requests, and since when. */
function trackConnections(server: http.Server): { closeSilent(forMs: number): void; closeAfterEachResponse(): void } {
  const connections = new Map<Socket, ConnectionState>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { idleSince: Date.now(), bytesAtIdle: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  // Before the portal's handler, so a response that ends at once still finds its connection marked busy.
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const state = connections.get(req.socket);
    if (!state) return;
    state.idleSince = null;
    // The listener is gone: this answer ends its connection, so the client opens its next one elsewhere.
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      state.idleSince = Date.now();
      state.bytesAtIdle = req.socket.bytesRead;
    });
  });
  return {
    closeAfterEachResponse() {
      closing = true;
    },
    closeSilent(forMs) {
      const isSilent = (socket: Socket, state: ConnectionState) =>
        state.idleSince !== null && Date.now() - state.idleSince >= forMs && socket.bytesRead === state.bytesAtIdle;
      const candidates = [...connections].filter(([socket, state]) => isSilent(socket, state));
      if (candidates.length === 0) return;
      // Checked again after this turn's I/O poll: bytes that reached the kernel while the event loop was busy
      // are read (and their request begun) before the connection is judged silent.
      setImmediate(() => {
        for (const [socket, state] of candidates) if (connections.has(socket) && isSilent(socket, state)) socket.destroy();
      });
    },
  };
}

/**
 * Resolves, with 0, once the kernel holds no connection for `port` the process has not accepted (at once where
 * that cannot be told); with the number still queued if `givenUp()` turns true first. Resolved in the same turn
 * as its last look, so the caller closes the listener before anything more can be accepted or queued unseen.
 */
async function whenAcceptQueueEmpty(port: number, givenUp: () => boolean): Promise<number> {
  for (;;) {
    const queued = queuedConnections(port) ?? 0;
    if (queued === 0 || givenUp()) return queued;
    await new Promise((resolve) => setTimeout(resolve, QUEUE_POLL_MS));
  }
}

export async function listen(
  portal: Portal,
  port: number,
  host: string,
  logger: Logger,
  drainTimeoutMs: number,
  /** How long to keep accepting after turning unready, so the load balancer stops sending first. */
  drainDelayMs = 0,
): Promise<RunningServer> {
  const server = guardedServer(portal.handler, portal.serverGuard);
  const connections = trackConnections(server);
  // Longer than a typical load balancer's idle timeout, so the balancer closes first and never hits a dead socket.
  // (A connection between two requests is not reading one: the read deadline starts at a request's first byte.)
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  portal.listening(url);

  let closing: Promise<void> | null = null;
  const shutdown = () => {
    closing ??= (async () => {
      portal.startDraining();
      if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
      let forced = false;
      const timer = setTimeout(() => {
        forced = true;
        logger.warn({ drainTimeoutMs }, 'drain timeout: closing remaining connections');
        server.closeAllConnections();
      }, drainTimeoutMs);
      timer.unref();
      const queued = await whenAcceptQueueEmpty(address.port, () => forced);
      if (queued > 0) logger.warn({ queued }, 'drain timeout: closing the listener with connections still queued (they are reset)');
      // Checked and closed in one turn: nothing is accepted in between, so what the check saw is what closing drops.
      // net.Server's close: stop accepting, resolve once every connection has ended. http.Server's own close()
      // would also destroy every connection between two requests at once, including one whose next request
      // is already on its way.
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      connections.closeAfterEachResponse();
      if (forced) server.closeAllConnections();
      const sweep = setInterval(() => connections.closeSilent(IDLE_CLOSE_MS), SWEEP_EVERY_MS);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await portal.close();
    })();
    return closing;
  };
  return { server, url, shutdown };
}
