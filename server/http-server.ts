/**
 * The HTTP server around a portal, with graceful shutdown: on SIGTERM readiness turns 503, the listener stops
 * accepting, idle keep-alive sockets close, in-flight responses finish, and the process exits 0 (or closes
 * what is left when the drain timeout runs out).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger';
import type { Portal } from './portal';

export interface RunningServer {
  server: http.Server;
  url: string;
  /** Drains and closes; resolves when every connection is gone. */
  shutdown(): Promise<void>;
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
  const server = http.createServer(portal.handler);
  // Longer than a typical load balancer's idle timeout, so the balancer closes first and never hits a dead socket.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let closing: Promise<void> | null = null;
  const shutdown = () => {
    closing ??= (async () => {
      portal.startDraining();
      if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        logger.warn({ drainTimeoutMs }, 'drain timeout: closing remaining connections');
        server.closeAllConnections();
      }, drainTimeoutMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
      await portal.close();
    })();
    return closing;
  };
  return { server, url, shutdown };
}
