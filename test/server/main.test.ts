/** The built server as operators run it: config errors, a Node outside engines, in-process reference API, and draining on SIGTERM. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startReferenceApi } from '../../scripts/reference-api/server';
import { EMBEDDED_UPSTREAM_BUNDLE } from '../../server/embedded-upstream';
import { packageInfo } from '../../server/platform/package-info';
import { HOME_CATID } from '../../shared/constants';
import { BUILT_SERVER, keepAliveClients, startBuiltServer, type ServerLogLine } from '../support/built-server';
import { timedGet } from '../support/http';
import { printFigures, startLoad, untilAnswered } from '../support/load';
import { firstHomeArticle } from '../support/upstream-data';

interface LogLine extends ServerLogLine {
  variable?: string;
  meant?: string;
  content?: string;
}

interface FailureLine {
  level: number;
  msg: string;
  exitCode: number;
  problems?: string[];
  hints?: string[];
}

/** A start that fails writes one JSON line on stderr and nothing else: that line, parsed. */
function failureLine(stderr: string): FailureLine {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  const line = JSON.parse(lines[0]!) as FailureLine;
  expect(line).toMatchObject({ level: 60, service: 'portal', time: expect.any(String) });
  return line;
}

function stderrOf(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BUILT_SERVER], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

type UpstreamControl = { stats(): { byPath: Record<string, number> } };

/** How many calls the reference API has recorded to paths containing `fragment`. */
function upstreamCalls(control: UpstreamControl, fragment: string): number {
  return Object.entries(control.stats().byPath).reduce((sum, [key, count]) => (key.includes(fragment) ? sum + count : sum), 0);
}

/** Resolves once the reference API has recorded more than `before` calls to paths containing `fragment`. */
async function untilUpstreamCalled(control: UpstreamControl, fragment: string, before: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (upstreamCalls(control, fragment) <= before) {
    if (Date.now() > deadline) throw new Error(`no new upstream call to ${fragment} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * /readyz polled until it fails, as a load balancer sees it: its status then, or 0 when the listener closed
 * before readiness ever failed (what a balancer would have no time to notice).
 */
async function readinessAfterSignal(url: string): Promise<{ status: number }> {
  for (;;) {
    const ready = await timedGet(`${url}/readyz`).catch(() => ({ status: 0 }));
    if (ready.status !== 200) return ready;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('server process', () => {
  it('leaves the reference content API out of the server bundle (it has its own, loaded only when embedded)', () => {
    const metafile = JSON.parse(readFileSync(path.resolve(__dirname, '../../dist/server/metafile.json'), 'utf8')) as { inputs: Record<string, unknown> };
    const inputs = Object.keys(metafile.inputs);
    expect(inputs).toContain('server/embedded-upstream.ts');
    expect(inputs.filter((input) => input.startsWith('scripts/'))).toEqual([]);
    expect(existsSync(EMBEDDED_UPSTREAM_BUNDLE)).toBe(true);
  });

  it('refuses to start on bad configuration, naming each bad variable', async () => {
    const { code, stderr } = await stderrOf({ PORT: '-1', REDIS_URL: 'localhost:6379' });
    expect(code).toBe(78);
    const line = failureLine(stderr);
    expect(line.exitCode).toBe(78);
    expect(line.msg).toMatch(/^invalid configuration: /);
    expect(line.msg).toContain('PORT="-1"');
    expect(line.msg).toContain('REDIS_URL="localhost:6379"');
    expect(line.problems).toHaveLength(2);
  });

  it('never serves made-up news: without UPSTREAM_URL it stops with exit 78 and one line, in production or not', async () => {
    const envs: Record<string, string>[] = [{ NODE_ENV: 'production' }, {}, { NODE_ENV: 'production', UPSTREAM_URl: 'https://cms.example.cn' }];
    for (const env of envs) {
      const { code, stderr } = await stderrOf(env);
      expect(code).toBe(78);
      const line = failureLine(stderr);
      expect(line.msg).toMatch(/UPSTREAM_URL is not set/);
      // The one problem, and a hint for each misspelt setting.
      expect(line.problems).toHaveLength(1);
      expect(line.hints).toEqual('UPSTREAM_URl' in env ? ['UPSTREAM_URl is set: did you mean UPSTREAM_URL?'] : []);
    }
  }, 120_000);

  it('refuses the reference dataset and a content API at once (one content source)', async () => {
    const { code, stderr } = await stderrOf({ UPSTREAM_URL: 'https://cms.example.cn', REFERENCE_API: 'in-process' });
    expect(code).toBe(78);
    expect(failureLine(stderr).msg).toContain('REFERENCE_API="in-process"');
  });

  it('says in one JSON line, with exit 69, that its port is taken or its address is not this machine’s', async () => {
    const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const inUse = await stderrOf({ UPSTREAM_URL: upstream.url, HOST: '127.0.0.1', PORT: String(port) });
      expect(inUse.code).toBe(69);
      expect(failureLine(inUse.stderr)).toMatchObject({
        exitCode: 69,
        code: 'EADDRINUSE',
        msg: `cannot listen on 127.0.0.1:${port}: the port is already in use (another process listens there; stop it or set PORT)`,
      });
      // The internal port taken: the line names INTERNAL_PORT as what to change, not PORT.
      const internalInUse = await stderrOf({ UPSTREAM_URL: upstream.url, HOST: '127.0.0.1', PORT: '0', INTERNAL_PORT: String(port) });
      expect(internalInUse.code).toBe(69);
      expect(failureLine(internalInUse.stderr)).toMatchObject({
        exitCode: 69,
        code: 'EADDRINUSE',
        msg: `INTERNAL_PORT: cannot listen on 127.0.0.1:${port}: the port is already in use (another process listens there; stop it or set INTERNAL_PORT)`,
      });
      // 192.0.2.1 (TEST-NET-1) is never an address of this machine.
      const notHere = await stderrOf({ UPSTREAM_URL: upstream.url, HOST: '192.0.2.1', PORT: '0' });
      expect(notHere.code).toBe(69);
      expect(failureLine(notHere.stderr)).toMatchObject({ code: 'EADDRNOTAVAIL', msg: expect.stringContaining('192.0.2.1 is not an address of this machine') });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      await upstream.close();
    }
  }, 120_000);

  it('names an environment variable that looks like a misspelt setting, with the one it probably meant', async () => {
    const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    const server = await startBuiltServer<LogLine>({ UPSTREAM_URL: upstream.url, REDIS_ULR: 'redis://127.0.0.1:6379', CACHE_PERFIX: 'x', Log_Level: 'debug' });
    try {
      const warnings = server.lines.filter((line) => line.variable !== undefined);
      expect(warnings.map((line) => [line.variable, line.meant]).sort()).toEqual([
        ['CACHE_PERFIX', 'CACHE_PREFIX'],
        ['Log_Level', 'LOG_LEVEL'],
        ['REDIS_ULR', 'REDIS_URL'],
      ]);
      expect(warnings.every((line) => line.level === 40)).toBe(true);
      // On the Node the suite runs (inside engines) nothing is said about the version (the next test's outside one is).
      expect(server.lines.filter((line) => line.msg?.includes('engines'))).toEqual([]);
      // A real content API: nothing says "reference".
      const res = await timedGet(`${server.url}/about`);
      expect(res.headers['x-content-source']).toBeUndefined();
      expect(JSON.parse((await timedGet(`${server.url}/readyz`)).body)).toMatchObject({ content: 'upstream' });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
      await upstream.close();
    }
  }, 120_000);

  it('warns once, naming both versions, when the Node it runs on is outside package.json engines', async () => {
    const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    const { nodeRange } = packageInfo();
    // The machine's own Node 20, as an image or host not yet upgraded would run it, whatever Node runs the suite.
    const preload = path.join(mkdtempSync(path.join(tmpdir(), 'old-node-')), 'node20.cjs');
    writeFileSync(preload, "Object.defineProperty(process, 'version', { value: 'v20.19.0' });\n");
    const outside = await startBuiltServer<LogLine>({ UPSTREAM_URL: upstream.url }, ['--require', preload]);
    try {
      const about = (lines: LogLine[]) => lines.filter((line) => line.msg?.includes('engines'));
      expect(about(outside.lines).map((line) => [line.level, line.msg])).toEqual([
        [40, `node v20.19.0 is outside the versions the portal is built and tested for (engines: node ${nodeRange}); starting anyway`],
      ]);
      expect((await timedGet(`${outside.url}/about`)).status).toBe(200);
    } finally {
      outside.child.kill('SIGTERM');
      expect(await outside.exit).toBe(0);
      await upstream.close();
    }
  }, 120_000);

  it('runs the in-process reference dataset only when asked by name, and says so in readiness, the log and every answer', async () => {
    const server = await startBuiltServer<LogLine>({ REFERENCE_API: 'in-process' });
    try {
      expect(server.lines.some((line) => line.level === 40 && line.content === 'reference-dataset')).toBe(true);
      const res = await timedGet(`${server.url}/`);
      expect(res.status).toBe(200);
      expect(res.body).toContain('home-grid');
      expect(res.headers['x-content-source']).toBe('reference-dataset');
      // A cached hit (answered before Express) says so too.
      const hit = await timedGet(`${server.url}/`);
      expect(hit.headers['x-cache']).toMatch(/HIT/);
      expect(hit.headers['x-content-source']).toBe('reference-dataset');
      // Embedded media are served from the portal's own origin, so readers on other machines see them.
      const image = /<img src="(\/media\/img\/[^"]+)"/.exec(res.body)?.[1];
      expect(image).toBeDefined();
      const media = await timedGet(`${server.url}${image}`);
      expect(media.status).toBe(200);
      expect(media.headers['content-type']).toBe('image/jpeg');
      const ready = await timedGet(`${server.url}/readyz`);
      expect(JSON.parse(ready.body)).toMatchObject({
        status: 'ready',
        content: 'reference-dataset',
        checks: { redis: 'not-configured', upstream: 'up', cache: 'memory' },
      });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
    }
  }, 120_000);

  it('finishes in-flight responses on SIGTERM and exits 0', async () => {
    const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    const server = await startBuiltServer<LogLine>({ UPSTREAM_URL: upstream.url });
    try {
      const raw = await firstHomeArticle(upstream.url, HOME_CATID);
      upstream.api.control.setLatency([{ path: '/show/', ms: 1000 }]);
      const before = upstreamCalls(upstream.api.control, '/show/');
      const inflight = timedGet(`${server.url}/detail/${raw.catid}/${raw.id}`);
      // The signal lands once the page's slow upstream call is under way: the request is in flight.
      await untilUpstreamCalled(upstream.api.control, '/show/', before);
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
  }, 120_000);

  it.each([0, 400, 1500])(
    'loses no request on accepted keep-alive connections: 8 clients sending through SIGTERM, SHUTDOWN_DELAY_MS=%i',
    async (delayMs) => {
      const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
      const server = await startBuiltServer<LogLine>({ UPSTREAM_URL: upstream.url, SHUTDOWN_DELAY_MS: String(delayMs) });
      try {
        const clients = keepAliveClients(`${server.url}/about`, 8);
        // SIGTERM lands in steady keep-alive traffic, however slow this machine is at the moment.
        const deadline = Date.now() + 60_000;
        while (clients.figures.answered < 40 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        const answeredBefore = clients.figures.answered;
        server.child.kill('SIGTERM');
        const figures = await clients.done;
        const code = await server.exit;
        console.log(`SIGTERM with SHUTDOWN_DELAY_MS=${delayMs}: ${JSON.stringify(figures)}`);
        expect(figures.lost).toEqual([]);
        expect(code).toBe(0);
        // Requests went on after the signal, answered with Connection: close, until the listener was gone.
        expect(figures.answered).toBeGreaterThan(answeredBefore);
        expect(figures.closing).toBeGreaterThan(0);
        expect(figures.refused).toBe(8);
      } finally {
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
        await upstream.close();
      }
    },
    120_000,
  );

  it('drains under load on SIGTERM: no failed response, exit 0 within the drain timeout', async () => {
    const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    // Readiness turns 503 at once; the listener stays open 2 s (what a load balancer needs to stop sending).
    const server = await startBuiltServer<LogLine>({ UPSTREAM_URL: upstream.url, SHUTDOWN_TIMEOUT_MS: '5000', SHUTDOWN_DELAY_MS: '2000' });
    try {
      const raw = await firstHomeArticle(upstream.url, HOME_CATID);
      const urls = ['/', `/detail/${raw.catid}/${raw.id}`, '/about'].map((path) => server.url + path);
      const load = startLoad(urls, 4);
      // SIGTERM lands in steady traffic, however slow this machine is at the moment.
      await untilAnswered(load, 12);
      const answeredBefore = load.figures.total;
      server.child.kill('SIGTERM');
      // The signal is handled on the server's next turn: readiness flips within the delay, not necessarily at once.
      const ready = await readinessAfterSignal(server.url);
      // A balancer stops sending once readiness fails; this one sends a few more requests inside the 2 s delay.
      await untilAnswered(load, load.figures.total + 4);
      load.stop();
      const figures = await load.done;
      const code = await server.exit;
      printFigures('SIGTERM under load', figures);
      expect(ready.status).toBe(503);
      expect(code).toBe(0);
      // The last lines may still be on their way when the exit is reported.
      if (!server.child.stdout!.closed) await once(server.child.stdout!, 'close');
      // The delay, then in-flight work, then exit: drained, not cut at the drain timeout (http-server.ts warns then).
      const shutdown = server.lines.map((line) => line.msg ?? '').filter((msg) => msg === 'draining' || msg === 'stopped' || msg.startsWith('drain timeout'));
      expect(shutdown).toEqual(['draining', 'stopped']);
      // Traffic went on after the signal and not one request failed.
      expect(figures.total).toBeGreaterThan(answeredBefore);
      expect(figures.errors).toBe(0);
      expect(Object.keys(figures.byStatus)).toEqual(['200']);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await upstream.close();
    }
  }, 120_000);
});
