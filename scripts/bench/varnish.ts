/**
 * A real varnishd running the shipped deploy/varnish/default.vcl with only its backends' addresses substituted
 * (compose's service names do not resolve here), on a loopback port, with a working directory of its own; for the
 * benchmarks and the edge suites alike. Stopped by its PID. `-j none`: no privilege separation, so the same command
 * works as root (the container) and as an ordinary user (a developer), with every file in its own directory.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../free-port';
import { spawnChild } from './children';

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

export interface TestVarnish {
  port: number;
  url: string;
  /** varnishd's PID (its worker is a child of it). */
  pid: number;
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
  /** Its cache's size (`-s malloc,…`), default 64m: a benchmark walking thousands of pages wants more. */
  storage?: string;
  /** The binary (BENCH_VARNISHD for the benchmarks; default varnishd on PATH). */
  binary?: string;
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
  const storage = `malloc,${options.storage ?? '64m'}`;
  const args = ['-F', '-j', 'none', '-n', dir, '-a', `127.0.0.1:${port}`, '-f', vcl, '-s', storage, '-T', 'none', ...VARNISHD_HEADER_LIMITS];
  const child = spawnChild('varnishd', options.binary ?? 'varnishd', args, {
    env: { ...process.env, EDGE_PURGE_TOKEN: options.purgeToken ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  let spawnError = '';
  child.process.once('error', (error) => (spawnError = error.message));
  child.process.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  child.process.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const stop = async (): Promise<void> => {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (spawnError || child.process.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`varnishd did not start: ${spawnError || printed}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, url: `http://127.0.0.1:${port}`, pid: child.process.pid!, output: () => printed, stop };
}
