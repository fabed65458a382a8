/**
 * A real varnishd for a test: the shipped deploy/varnish/default.vcl with only its backends' addresses substituted
 * (compose's service names do not resolve here), on a free loopback port, with a working directory of its own.
 * Stopped by the PID the test started. `-j none`: no privilege separation, so the same command works as root
 * (the container) and as an ordinary user (a developer), with every file in the test's own directory.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port';
import { deleteKeys } from '../server/cache/redis-helpers';
import { startTestPortal, type TestPortal } from './portal';
import { testRedisUrl } from './requirements';

/** Header limits docker-compose.yml gives varnishd: a page's Surrogate-Key may be far longer than the default 8 KiB. */
export const VARNISHD_HEADER_LIMITS = ['-p', 'http_resp_hdr_len=32k', '-p', 'http_resp_size=64k'] as const;

const VCL_PATH = path.resolve(__dirname, '../../deploy/varnish/default.vcl');
const BACKEND = /\.host = "portal-\d+"; \.port = "3000";/g;

/** The shipped VCL with each `portal-N:3000` backend replaced, in order, by one of `backends` (host:port). */
export function adaptedVcl(backends: readonly string[], vcl = readFileSync(VCL_PATH, 'utf8')): string {
  let index = 0;
  const adapted = vcl.replace(BACKEND, () => {
    const [host, port] = backends[index++ % backends.length]!.split(':');
    return `.host = "${host}"; .port = "${port}";`;
  });
  if (adapted === vcl) throw new Error('deploy/varnish/default.vcl no longer names its backends as .host = "portal-N"; .port = "3000";');
  return adapted;
}

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

export interface TestVarnish {
  port: number;
  url: string;
  /** What varnishd printed (its start-up messages, VCL errors). */
  output(): string;
  stop(): Promise<void>;
}

export interface TestVarnishOptions {
  /** host:port of each portal instance (the VCL's two backends take them in order). */
  backends: readonly string[];
  /** EDGE_PURGE_TOKEN in varnishd's environment (the VCL refuses every PURGE without one). */
  purgeToken?: string;
  /** A port chosen beforehand (portals that purge the edge must name it before it starts); default: a free one. */
  port?: number;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startVarnish(options: TestVarnishOptions): Promise<TestVarnish> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-varnish-'));
  const vcl = path.join(dir, 'default.vcl');
  writeFileSync(vcl, adaptedVcl(options.backends));
  const port = options.port ?? (await freePort());
  const args = ['-F', '-j', 'none', '-n', dir, '-a', `127.0.0.1:${port}`, '-f', vcl, '-s', 'malloc,64m', '-T', 'none', ...VARNISHD_HEADER_LIMITS];
  const child: ChildProcess = spawn('varnishd', args, {
    env: { ...process.env, EDGE_PURGE_TOKEN: options.purgeToken ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`varnishd did not start: ${printed}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, url: `http://127.0.0.1:${port}`, output: () => printed, stop };
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
    const own = { redisUrl: testRedisUrl(), ...(options.announceEveryMs ? { announceEveryMs: options.announceEveryMs } : {}) };
    suite.a = await startTestPortal({ ...own, env });
    suite.b = await startTestPortal({ ...own, upstream: suite.a.upstream, cachePrefix: suite.a.cachePrefix, env: env(suite.a.upstream.url) });
    suite.varnish = await startVarnish({ backends: [new URL(suite.a.url).host, new URL(suite.b.url).host], purgeToken: options.purgeToken, port });
  });
  afterEach(() => suite.a?.upstream.api.control.reset());
  afterAll(async () => {
    await suite.varnish?.stop();
    await suite.b?.close();
    await suite.a?.close();
    if (suite.a) await deleteKeys(testRedisUrl(), suite.a.cachePrefix);
  });
  return suite;
}
