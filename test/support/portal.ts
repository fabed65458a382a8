/**
 * A real portal for a test: the reference content API on a loopback port, the portal on another, the cache
 * store the test asks for. Logs are kept in memory (tests assert on them) instead of printed.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { startReferenceApi } from '../../scripts/reference-api/server';
import type { ReferenceImages } from '../../scripts/reference-api/media';
import { cacheKey } from '../../server/cache/keys';
import { loadConfig } from '../../server/platform/config';
import { listen, type RunningServer } from '../../server/http-server';
import { createLogger } from '../../server/platform/logger';
import { createPortal, type Portal } from '../../server/portal';

export type ReferenceServer = Awaited<ReturnType<typeof startReferenceApi>>;

export interface TestPortal {
  url: string;
  portal: Portal;
  server: RunningServer;
  upstream: ReferenceServer;
  cachePrefix: string;
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface TestPortalOptions {
  redisUrl?: string;
  /** Share an upstream between portals (cross-instance tests); otherwise each portal starts its own. */
  upstream?: ReferenceServer;
  /** Share a cache prefix between portals; otherwise each portal gets a fresh one. */
  cachePrefix?: string;
  /** Settings over the test defaults; a function when they name the portal's own upstream (its URL). */
  env?: Record<string, string> | ((upstreamUrl: string) => Record<string, string>);
  /** The upstream the portal starts for itself has three misconfigured menu entries unless this is false. */
  menuFaults?: boolean;
  /** How the upstream the portal starts for itself serves pictures (REFERENCE_IMAGES; default: the environment's). */
  referenceImages?: ReferenceImages;
  /** A fixed port (sign-in tests must name the callback origin before the portal starts); default: any free one. */
  port?: number;
  /** false: cached hits go through the Express chain too (see server/render/page-hits.ts). */
  pageHits?: boolean;
  /** How often the instance re-announces itself in Redis (default 10 s; its key lives three times that). */
  announceEveryMs?: number;
  /** How often a line says a Redis outage goes on (default a minute). */
  outageLogEveryMs?: number;
}

/** Tests start asking at once; a real instance would have connected long before its first reader. */
async function waitForStore(portal: Portal): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!portal.store.isAvailable()) {
    if (Date.now() > deadline) throw new Error('the portal did not connect to Redis within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function startTestPortal(options: TestPortalOptions = {}): Promise<TestPortal> {
  // With the three misconfigured menu entries, so the editor's warnings are part of what the suites exercise.
  const upstream =
    options.upstream ??
    (await startReferenceApi({
      port: 0,
      host: '127.0.0.1',
      menuFaults: options.menuFaults ?? true,
      ...(options.referenceImages ? { images: options.referenceImages } : {}),
    }));
  const env = typeof options.env === 'function' ? options.env(upstream.url) : options.env;
  const cachePrefix = options.cachePrefix ?? `t${randomBytes(6).toString('hex')}`;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    CACHE_PREFIX: cachePrefix,
    UPSTREAM_URL: upstream.url,
    LOG_LEVEL: 'info',
    // Several suites share two cores with Chromium: generous timeouts keep a busy machine from reading as an
    // outage. Suites that test timeouts set their own.
    UPSTREAM_TIMEOUT_MS: '10000',
    // The reference API paints a large picture in one-size mode on a core Chromium shares: the resizer waits for it.
    IMAGE_SOURCE_TIMEOUT_MS: '30000',
    REDIS_COMMAND_TIMEOUT_MS: '5000',
    // Suites count the CMS calls a page makes: the flag watch's own call every few seconds would land among them.
    // flags.test.ts runs it; the built-server suites run the shipped default.
    FLAG_WATCH_S: '0',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const logger = createLogger(config.LOG_LEVEL, sink);
  let portal: Portal | undefined;
  let server: RunningServer;
  try {
    portal = createPortal({
      config,
      logger,
      upstreamUrl: upstream.url,
      ...(options.pageHits === false ? { pageHits: false } : {}),
      ...(options.announceEveryMs ? { announceEveryMs: options.announceEveryMs } : {}),
      ...(options.outageLogEveryMs ? { outageLogEveryMs: options.outageLogEveryMs } : {}),
    });
    server = await listen(portal, options.port ?? 0, '127.0.0.1', logger, 2000);
  } catch (error) {
    // A portal that cannot start (no client build, say) leaves no reference API of this call's running, which
    // would keep the test worker from exiting and hide the error behind a hang.
    await portal?.close();
    if (!options.upstream) await upstream.close();
    throw error;
  }
  if (options.redisUrl) await waitForStore(portal);
  return {
    url: server.url,
    portal,
    server,
    upstream,
    cachePrefix,
    logs,
    close: async () => {
      await server.shutdown();
      if (!options.upstream) await upstream.close();
    },
  };
}

/** The key under which `t` holds the shared page of `path` on site `siteId` (server/cache/keys.ts). */
export function pageKeyOf(t: TestPortal, siteId: number, path: string): string {
  return cacheKey({ prefix: t.cachePrefix, buildId: t.portal.assets.buildId }, 'page', siteId, path);
}

/** The first log line of `t` that `matches`, waited for (a browser's report arrives when it arrives), within 30 s. */
export async function waitForLog(t: TestPortal, matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = t.logs.find(matches);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such log line within 30 s; ${t.logs.length} lines logged`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Counts the requests whose path starts with `prefix` as they reach `t` (the portal runs in this process). */
export function requestsTo(t: TestPortal, prefix: string): () => number {
  let count = 0;
  t.server.server.on('request', (req: { url?: string }) => {
    if (req.url?.startsWith(prefix)) count += 1;
  });
  return () => count;
}
