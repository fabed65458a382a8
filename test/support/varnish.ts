/**
 * A real varnishd for a test (scripts/bench/varnish.ts, which the benchmarks start too): the shipped
 * deploy/varnish/default.vcl with only its backends' addresses substituted, and two portals behind it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port';
import { startVarnish, type TestVarnish } from '../../scripts/bench/varnish';
import { deleteKeys } from '../server/cache/redis-helpers';
import { startTestPortal, type TestPortal } from './portal';
import { testRedisUrl } from './requirements';

export { adaptedVcl, startVarnish, VARNISHD_HEADER_LIMITS, type TestVarnish, type TestVarnishOptions } from '../../scripts/bench/varnish';

/** `varnishd -C` (compile only) of a VCL text: exit code and what the compiler said. */
export function compileVcl(vcl: string): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-vcc-'));
  const file = path.join(dir, 'default.vcl');
  writeFileSync(file, vcl);
  return new Promise((resolve) => {
    execFile('varnishd', ['-C', '-j', 'none', '-n', dir, '-f', file], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stderr });
    });
  });
}

export interface PortalsBehindVarnish {
  a: TestPortal;
  b: TestPortal;
  varnish: TestVarnish;
}

export interface PortalsBehindVarnishOptions {
  purgeToken: string;
  /** Both instances' environment, given the edge's address (known before the portals start) and the upstream's. */
  env?: (edge: { url: string }, upstreamUrl: string) => Record<string, string>;
  announceEveryMs?: number;
  /** A Redis of the suite's own (read when the portals start; its keys go with it), instead of the shared one. */
  redisUrl?: () => string;
}

/**
 * Two portals on the real Redis (one upstream, one key prefix) behind a real varnishd running the shipped VCL,
 * for the suite that calls this in its body: started before its tests, the upstream's fault controls reset after
 * each, the prefix's keys deleted and every process stopped after them. Fields are filled in by beforeAll.
 */
export function portalsBehindVarnish(options: PortalsBehindVarnishOptions): PortalsBehindVarnish {
  const suite = {} as PortalsBehindVarnish;
  beforeAll(async () => {
    const port = await freePort();
    const edge = { url: `http://127.0.0.1:${port}` };
    const env = (upstreamUrl: string) => options.env?.(edge, upstreamUrl) ?? {};
    const own = { redisUrl: options.redisUrl?.() ?? testRedisUrl(), ...(options.announceEveryMs ? { announceEveryMs: options.announceEveryMs } : {}) };
    suite.a = await startTestPortal({ ...own, env });
    suite.b = await startTestPortal({ ...own, upstream: suite.a.upstream, cachePrefix: suite.a.cachePrefix, env: env(suite.a.upstream.url) });
    suite.varnish = await startVarnish({ backends: [new URL(suite.a.url).host, new URL(suite.b.url).host], purgeToken: options.purgeToken, port });
  });
  afterEach(() => suite.a?.upstream.api.control.reset());
  afterAll(async () => {
    await suite.varnish?.stop();
    await suite.b?.close();
    await suite.a?.close();
    if (suite.a && !options.redisUrl) await deleteKeys(testRedisUrl(), suite.a.cachePrefix);
  });
  return suite;
}
