/** The built server as operators run it: config errors, in-process reference API, and draining on SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { startReferenceApi } from '../../scripts/reference-api/server';
import { HOME_CATID } from '../../shared/constants';
import { timedGet } from '../support/http';
import { printFigures, startLoad, untilAnswered } from '../support/load';
import { firstHomeArticle } from '../support/upstream-data';

const SERVER = path.resolve(__dirname, '../../dist/server/main.cjs');

interface Started {
  child: ChildProcess;
  url: string;
  exit: Promise<number | null>;
}

function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error('server did not start in 15 s')), 15_000);
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { url?: string; msg?: string };
      if (entry.url && entry.msg?.startsWith('portal listening')) {
        clearTimeout(timer);
        resolve({ child, url: entry.url, exit });
      }
    });
    void exit.then((code) => reject(new Error(`server exited early with ${code}`)));
  });
}

function stderrOf(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

/** /readyz polled until it fails (or the listener's 2 s delay is nearly over): what a load balancer sees. */
async function readinessAfterSignal(url: string): Promise<{ status: number }> {
  const deadline = Date.now() + 1500;
  for (;;) {
    const ready = await timedGet(`${url}/readyz`);
    if (ready.status === 503 || Date.now() > deadline) return ready;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('server process', () => {
  it('refuses to start on bad configuration, naming each bad variable', async () => {
    const { code, stderr } = await stderrOf({ PORT: '-1', REDIS_URL: 'localhost:6379' });
    expect(code).toBe(78);
    expect(stderr).toContain('PORT="-1"');
    expect(stderr).toContain('REDIS_URL="localhost:6379"');
  });

  it('runs on its embedded defaults: in-process reference API and cache', async () => {
    const server = await startServer({});
    try {
      const res = await timedGet(`${server.url}/`);
      expect(res.status).toBe(200);
      expect(res.body).toContain('home-grid');
      // Embedded media are served from the portal's own origin, so readers on other machines see them.
      const image = /<img src="(\/media\/img\/[^"]+)"/.exec(res.body)?.[1];
      expect(image).toBeDefined();
      const media = await timedGet(`${server.url}${image}`);
      expect(media.status).toBe(200);
      expect(media.headers['content-type']).toBe('image/jpeg');
      const ready = await timedGet(`${server.url}/readyz`);
      expect(JSON.parse(ready.body)).toMatchObject({ status: 'ready', checks: { redis: 'not-configured', upstream: 'up', cache: 'memory' } });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
    }
  });

  it('finishes in-flight responses on SIGTERM and exits 0', async () => {
    const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    const server = await startServer({ UPSTREAM_URL: upstream.url });
    try {
      const raw = await firstHomeArticle(upstream.url, HOME_CATID);
      upstream.api.control.setLatency([{ path: '/show/', ms: 1000 }]);
      const inflight = timedGet(`${server.url}/detail/${raw.catid}/${raw.id}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      server.child.kill('SIGTERM');
      const res = await inflight;
      expect(res.status).toBe(200);
      expect(res.body.endsWith('</body></html>')).toBe(true);
      expect(await server.exit).toBe(0);
      await expect(timedGet(`${server.url}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await upstream.close();
    }
  });

  it('drains under load on SIGTERM: no failed response, exit 0 within the drain timeout', async () => {
    const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    // Readiness turns 503 at once; the listener stays open 2 s (what a load balancer needs to stop sending).
    const server = await startServer({ UPSTREAM_URL: upstream.url, SHUTDOWN_TIMEOUT_MS: '5000', SHUTDOWN_DELAY_MS: '2000' });
    try {
      const raw = await firstHomeArticle(upstream.url, HOME_CATID);
      const urls = ['/', `/detail/${raw.catid}/${raw.id}`, '/about'].map((path) => server.url + path);
      const load = startLoad(urls, 4);
      // SIGTERM lands in steady traffic, however slow this machine is at the moment.
      await untilAnswered(load, 12);
      const answeredBefore = load.figures.total;
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      // The signal is handled on the server's next turn: readiness flips within the delay, not necessarily at once.
      const ready = await readinessAfterSignal(server.url);
      // A balancer stops sending once readiness fails; this one stops inside the 2 s delay.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      load.stop();
      const figures = await load.done;
      const code = await server.exit;
      printFigures('SIGTERM under load', figures);
      expect(ready.status).toBe(503);
      expect(code).toBe(0);
      // The delay, then in-flight work, then exit: inside delay + drain timeout (no connection was cut).
      expect(Date.now() - signalled).toBeLessThan(7000);
      // Traffic went on after the signal and not one request failed.
      expect(figures.total).toBeGreaterThan(answeredBefore);
      expect(figures.errors).toBe(0);
      expect(Object.keys(figures.byStatus)).toEqual(['200']);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await upstream.close();
    }
  });
});
