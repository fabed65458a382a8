/**
 * Listens on loopback only: the control plane (/__control) has no authentication, so the server must never be
 * reachable from another machine.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceApi, type ReferenceApi, type ReferenceApiOptions } from './app';

export interface StartOptions extends ReferenceApiOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 (default), localhost or ::1; another address only with controlPlane: false. */
  host?: string;
}

export interface RunningReferenceApi {
  url: string;
  port: number;
  api: ReferenceApi;
  /** The HTTP server, for a test that watches the requests it receives (their headers). */
  server: Server;
  /** Stops listening and destroys every connection, including keep-alive and hanging ones. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function urlFor(host: string, port: number): string {
  return host === '::1' ? `http://[::1]:${port}` : `http://${host}:${port}`;
}

export async function startReferenceApi(options: StartOptions = {}): Promise<RunningReferenceApi> {
  const host = options.host ?? '127.0.0.1';
  // The control plane has no authentication: beyond loopback the API may only run without it.
  if (!LOOPBACK_HOSTS.has(host) && options.controlPlane !== false) {
    throw new Error(`reference API binds to loopback only, not ${host}, unless its control plane is off`);
  }
  const api = createReferenceApi(options);
  const server = createServer(api.handler);
  // Benchmarks open many short requests; a short keep-alive keeps sockets from piling up between runs.
  server.keepAliveTimeout = 5_000;
  const address = await listen(server, options.port ?? 0, host);
  const url = urlFor(host, address.port);
  if (options.publicUrl === undefined) api.control.setPublicUrl(url);

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      // close() alone waits for open sockets; hanging requests would keep it pending forever.
      server.closeAllConnections();
    });
    return closing;
  };
  return { url, port: address.port, api, close, server };
}
