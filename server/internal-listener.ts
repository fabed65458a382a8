/**
 * The internal listener (INTERNAL_PORT): /metrics, /_internal, /healthz and /readyz on a port of their own, for
 * Prometheus, the cache CLI and the kubelet, which the Ingress (or any public balancer) never exposes. It keeps
 * answering while the public listener drains (a scrape during a rollout still counts the drain), and closes last.
 */
import type { AddressInfo, Socket } from 'node:net';
import type { Portal } from './portal';
import { guardedServer } from './server-guard';

export interface InternalListener {
  url: string;
  close(): Promise<void>;
}

/** Null when the portal has no internal handler (INTERNAL_PORT unset). */
export async function listenInternal(portal: Portal, port: number, host: string): Promise<InternalListener | null> {
  if (!portal.internalHandler) return null;
  const server = guardedServer(portal.internalHandler, portal.serverGuard);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    // Scrapes and probes are short: nothing to drain, so idle keep-alive connections are closed at once.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
