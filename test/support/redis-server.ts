/**
 * redis-server processes of the test's own on free loopback ports: a plain server the test may stop and start
 * again, and the pieces clusters and Sentinel sets are built from (redis-cluster.ts, redis-sentinel.ts).
 * Every process is stopped by the PID the test started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { redisAnswers } from '../../scripts/redis-ping.cjs';
import { freePort } from '../../scripts/free-port';

function answers(port: number): Promise<boolean> {
  return redisAnswers({ port, timeoutMs: 300 });
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what = 'redis-server'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface OwnRedisOptions {
  /** Arguments after the defaults (or, for Sentinel, a config file: see `configFile`). */
  args?: (port: number) => string[];
  /** A config file read first (Sentinel needs one it can rewrite); then `--sentinel` mode when `sentinel`. */
  configFile?: (port: number) => string;
  sentinel?: boolean;
}

export class OwnRedis {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly options: OwnRedisOptions,
  ) {}

  static async start(options: OwnRedisOptions = {}): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort(), options);
    await redis.startProcess();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async startProcess(): Promise<void> {
    this.child = spawn('redis-server', this.argv(), { stdio: 'ignore' });
    await waitUntil(() => answers(this.port), 5000);
  }

  private argv(): string[] {
    const { configFile, sentinel, args } = this.options;
    if (configFile) return [configFile(this.port), ...(sentinel ? ['--sentinel'] : []), ...(args?.(this.port) ?? [])];
    // DEBUG SLEEP from loopback lets fault tests make this server slow on purpose.
    const defaults = ['--bind', '127.0.0.1', '--port', String(this.port), '--save', '', '--appendonly', 'no', '--enable-debug-command', 'local'];
    return [...defaults, ...(args?.(this.port) ?? [])];
  }

  /**
   * Freezes the server (SIGSTOP, by the PID this test started): its connections stay open and nothing is answered,
   * as with a stalled VM or a black-holed network. `resume` (SIGCONT) lets it answer again.
   */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Stops the server (by the PID this test started) and waits until it has exited. SIGKILL: a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // A frozen server would take SIGTERM only once thawed.
    if (signal === 'SIGTERM') child.kill('SIGCONT');
    child.kill(signal);
    await exited;
    this.child = null;
  }
}
