/**
 * The benchmark's servers and load generator, each in its own process, so a measure reads the server's own CPU
 * time (from /proc/<pid>/stat, the process and its children) and not its client's: the portal as deployed
 * (dist/server/main.cjs), a bare node:http server and nginx sending the same bytes, and autocannon.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/render/assets';
import { freePort } from '../free-port';
import { redisAnswers } from '../redis-ping.cjs';
import { spawnChild } from './children';
import { nginxMissing } from './requirements';

export interface Running {
  url: string;
  pid: number;
  /** Ends it by its PID (SIGTERM unless told: SIGKILL is a crash) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

async function waitUntilAnswering(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    const answered = await fetch(url).then(
      (res) => res.arrayBuffer().then(() => true),
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not answer ${url} within 60 s`);
}

/**
 * The portal's production bundle with `env` (UPSTREAM_URL, REDIS_URL, CACHE_PREFIX, …), node run with `nodeArgs`
 * (--cpu-prof); `main`: another bundle of the same tree (a variant beside dist/server/main.cjs, to compare two);
 * `port`: a port chosen beforehand (a restart on the same address, peers that name each other), else a free one.
 */
export async function startPortalProcess(
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
  main = path.join(PROJECT_ROOT, 'dist/server/main.cjs'),
  port?: number,
): Promise<Running> {
  port ??= await freePort();
  const child = spawnChild('portal', process.execPath, [...nodeArgs, main], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${url}/healthz`, child.process, 'the portal');
  return { url, pid: child.process.pid!, stop: (signal) => child.stop(signal) };
}

/**
 * A redis-server of the bench's own on a loopback port (a free one unless `port` is given: a restart on the same
 * address), no persistence: a Redis the outage row and the day's restart may stop without touching the one at
 * REDIS_URL. `stop` ends it by its PID.
 */
export async function startRedisServer(port?: number): Promise<Running> {
  const on = port ?? (await freePort());
  const child = spawnChild('redis-server', 'redis-server', ['--port', String(on), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${on}`;
  const deadline = Date.now() + 30_000;
  while (!(await redisAnswers({ port: on, timeoutMs: 300 }))) {
    if (child.process.exitCode !== null) throw new Error(`redis-server exited with code ${child.process.exitCode}`);
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${on} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, pid: child.process.pid!, stop: (signal) => child.stop(signal) };
}

/**
 * node:http sending `body` with `headers` to every request; with `fromRedis`, reading it from that Redis under
 * that key (stored there at start, a key the caller cleans up) with one GET per request.
 */
export async function startBareServer(
  body: Buffer,
  headers: Array<[string, string]>,
  fromRedis?: { url: string; key: string },
  nodeArgs: readonly string[] = [],
): Promise<Running> {
  const directory = mkdtempSync(path.join(tmpdir(), 'bench-bare-'));
  writeFileSync(path.join(directory, 'body'), body);
  writeFileSync(path.join(directory, 'headers.json'), JSON.stringify(headers.flat()));
  const port = await freePort();
  const script = path.join(PROJECT_ROOT, 'scripts/bench/bare-server.mjs');
  const redisArgs = fromRedis ? [fromRedis.url, fromRedis.key] : [];
  const child = spawnChild(
    'bare server',
    process.execPath,
    [...nodeArgs, script, String(port), path.join(directory, 'body'), path.join(directory, 'headers.json'), ...redisArgs],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url, child.process, 'the bare server');
  return {
    url,
    pid: child.process.pid!,
    stop: async () => {
      await child.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

const NGINX = '/usr/sbin/nginx';

/** Debian's nginx, provided with the benchmarks' other tools (requirements.ts); the reason when it cannot be had. */
async function nginxBinary(): Promise<{ path: string } | { missing: string }> {
  const missing = await nginxMissing();
  return missing ? { missing } : { path: NGINX };
}

export async function startNginx(files: Record<string, { identity: Buffer; gzip: Buffer }>): Promise<Running | { missing: string }> {
  const binary = await nginxBinary();
  if ('missing' in binary) return binary;
  return runNginx(binary.path, 'bench-nginx-', `/${Object.keys(files)[0]}`, (directory, port) => {
    for (const [name, bytes] of Object.entries(files)) {
      writeFileSync(path.join(directory, name), bytes.identity);
      writeFileSync(path.join(directory, `${name}.gz`), bytes.gzip);
    }
    return `events { worker_connections 1024; }
http {
  access_log off;
  server_tokens off;
  sendfile on;
  keepalive_requests 1000000;
  client_body_temp_path ${directory}/body;
  types { }
  default_type "text/html; charset=utf-8";
  gzip_static on;
  server { listen 127.0.0.1:${port}; root ${directory}; }
}
`;
  });
}

/**
 * Debian's nginx as the readers' balancer in front of several edges (the place a CDN or an L4 balancer has in a
 * deployment): round robin, a read an edge does not answer (refused, reset before its head) tried on the next,
 * the answer streamed through unbuffered, Host and the client's headers passed as they came.
 */
export async function startBalancer(backends: readonly string[]): Promise<Running> {
  const binary = await nginxBinary();
  if ('missing' in binary) throw new Error(`the balancer in front of the edges needs nginx: ${binary.missing}`);
  return runNginx(
    binary.path,
    'bench-balancer-',
    '/healthz',
    (directory, port) => `events { worker_connections 4096; }
http {
  access_log off;
  server_tokens off;
  client_body_temp_path ${directory}/body;
  proxy_temp_path ${directory}/proxy;
  upstream edges {
${backends.map((backend) => `    server ${backend} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://edges;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
    }
  }
}
`,
  );
}

/**
 * nginx in the foreground on a free loopback port, from a directory of its own (made readable: its worker runs as
 * www-data) holding what `configure` writes and returns (the conf after its process lines); answered at `probe`.
 */
async function runNginx(binary: string, prefix: string, probe: string, configure: (directory: string, port: number) => string): Promise<Running> {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(directory, 0o755);
  const port = await freePort();
  const conf = path.join(directory, 'nginx.conf');
  writeFileSync(conf, `worker_processes 1;\ndaemon off;\npid ${directory}/nginx.pid;\nerror_log ${directory}/error.log;\n${configure(directory, port)}`);
  const child = spawnChild('nginx', binary, ['-p', directory, '-c', conf, '-e', path.join(directory, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${url}${probe}`, child.process, 'nginx');
  return {
    url,
    pid: child.process.pid!,
    stop: async () => {
      await child.stop('SIGQUIT');
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

const TICK_MICROS = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resident memory of a process and its children (varnishd's cache process, nginx's worker), KiB. */
export function rssKiBOf(pid: number): number {
  let kib = 0;
  for (const id of [pid, ...childrenOf(pid)]) {
    try {
      kib += Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // a child that ended meanwhile
    }
  }
  return kib;
}

/** User + system CPU time of a process and its children (nginx's worker), in µs, from /proc/<pid>/stat. */
export function cpuMicrosOf(pid: number): number {
  let ticks = 0;
  for (const id of [pid, ...childrenOf(pid)]) {
    try {
      // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
      const fields = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // a child that ended meanwhile
    }
  }
  return ticks * TICK_MICROS;
}

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Request each once, in turn, instead of `url`'s path for `seconds`. */
  paths?: string[];
  /** With `paths`: request them in turn for `seconds` instead of once each. */
  cycle?: boolean;
  /** Count the answers of each whole second of the run as well (LoadResult.perSecond). */
  perSecond?: boolean;
  /** With perSecond: count seconds from this moment (Date.now()) instead of the load's start (loads side by side). */
  countFrom?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  p99: number;
  /** The server's CPU time over the load, µs. */
  serverMicros: number;
  /** With spec.perSecond: answers in each whole second since the load started (startedAt, Date.now()), or spec.countFrom. */
  perSecond?: number[];
  startedAt?: number;
}

/**
 * One autocannon run in a child process, with the server's CPU time read around it; `onStart` (with
 * spec.perSecond) is called once the load has started.
 */
export async function loadFrom(spec: LoadSpec, serverPid: number, onStart?: () => void): Promise<LoadResult> {
  const before = cpuMicrosOf(serverPid);
  const output = await new Promise<string>((resolve, reject) => {
    const { process: child } = spawnChild(
      'load generator',
      process.execPath,
      [path.join(PROJECT_ROOT, 'scripts/bench/load.mjs'), JSON.stringify(spec)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
      true,
    );
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      if (onStart && text === '' && chunk.includes('\n')) onStart();
      text += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`load generator exited with ${code}`))));
  });
  const serverMicros = cpuMicrosOf(serverPid) - before;
  const result = JSON.parse(output.trim().split('\n').at(-1)!) as {
    requests: number;
    seconds: number;
    p99: number;
    non2xx: number;
    errors: number;
    perSecond?: number[];
    startedAt?: number;
  };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${spec.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    requests: result.requests,
    seconds: result.seconds,
    p99: result.p99,
    serverMicros,
    ...(result.perSecond ? { perSecond: result.perSecond, startedAt: result.startedAt ?? 0 } : {}),
  };
}

/** Each page rendered and stored (Redis and L1), then answered as a HIT: fails the bench when one is not. */
export async function warmHits(base: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) await (await fetch(base + path)).arrayBuffer();
  for (const path of paths) {
    const res = await fetch(base + path);
    await res.arrayBuffer();
    if (res.headers.get('x-cache') !== 'HIT') throw new Error(`${path} was not a HIT after its render`);
  }
}
