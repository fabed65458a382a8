/**
 * Every request gets a status, never a bare close, and no slow client holds a connection (server/server-guard.ts,
 * server/edge/read-deadline.ts), over raw sockets, directly and through a real varnishd running the shipped
 * VCL: methods the portal does not serve (CONNECT, a method no parser knows, WebDAV's and TRACE) are answered 405
 * with `Allow` or 501; headers or a body trickled a byte at a time are answered 408 at REQUEST_READ_TIMEOUT_MS
 * (1 s here) and the connection closed, counted in portal_request_read_timeouts_total{phase}.
 */
import net from 'node:net';
import request from 'supertest';
import { freePort } from '../../scripts/free-port';
import { listenInternal, type InternalListener } from '../../server/internal-listener';
import { MAIN_SITE } from '../../shared/sites';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithRedis, describeWithVarnish } from '../support/requirements';
import { portalsBehindVarnish } from '../support/varnish';

const READ_TIMEOUT_MS = 1000;
const HOST = `Host: ${MAIN_SITE.domain}\r\n`;

interface Exchange {
  /** Every status line read, in order. */
  statuses: number[];
  /** The first answer's head. */
  head: string;
  /** Whether the server closed the connection before the client gave up. */
  closed: boolean;
}

/**
 * Writes `now` on a new connection, then `trickle` one byte every 200 ms (a slow client), and reads until the
 * server closes the connection or `limitMs` pass (reported as not closed).
 */
function exchange(url: string, now: string, trickle = '', limitMs = 20_000): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let text = '';
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!, 'latin1');
    }, 200);
    const finish = (closed: boolean) => {
      clearInterval(drip);
      clearTimeout(limit);
      socket.destroy();
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
      resolve({ statuses, head: text.split('\r\n\r\n')[0] ?? '', closed });
    };
    const limit = setTimeout(() => finish(false), limitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(now, 'latin1');
  });
}

/** A body announced at `length` bytes, of which the client sends the first now and the rest a byte at a time. */
function trickledPost(path: string, length = 120): [string, string] {
  const body = `{"content":"${'慢'.repeat(40)}"}`.padEnd(length, ' ').slice(0, length);
  // Same-origin, as the portal's own pages send it: the request reaches the route that reads the body.
  const origin = `Origin: https://${MAIN_SITE.domain}\r\n`;
  return [
    `POST ${path} HTTP/1.1\r\n${HOST}${origin}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body[0]}`,
    body.slice(1),
  ];
}

/** The methods a reader's browser never sends to the portal: [request line, the statuses that may answer it]. */
const METHODS: Array<[string, readonly number[]]> = [
  [`CONNECT ${MAIN_SITE.domain}:443 HTTP/1.1`, [405, 501]],
  ['CONNECT 127.0.0.1:22 HTTP/1.1', [405, 501]],
  ['FOO /about HTTP/1.1', [405, 501]],
  ['BREW /coffee HTTP/1.1', [405, 501]],
  ['TRACE /about HTTP/1.1', [405, 501]],
  ['TRACK /about HTTP/1.1', [405, 501]],
  ['PROPFIND /about HTTP/1.1', [405, 501]],
  ['MKCOL /new HTTP/1.1', [405, 501]],
  ['DELETE /about HTTP/1.1', [405, 501]],
  ['PUT /about HTTP/1.1', [405, 501]],
  ['PATCH /api/common/feedback HTTP/1.1', [405, 501]],
  ['PROPFIND /api/common/feedback HTTP/1.1', [405, 501]],
  ['LOCK /assets/app.js HTTP/1.1', [405, 501]],
];

async function readTimeouts(t: TestPortal, phase: 'headers' | 'body'): Promise<number> {
  const text = (await request(t.url).get('/metrics')).text;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`portal_request_read_timeouts_total{phase="${phase}"}`));
  return Number(line?.split(' ')[1] ?? NaN);
}

/** Each method is answered: one status of `allowed`, `Allow` with a 405, never shareable, never a bare close. */
async function expectAnswered(url: string, line: string, allowed: readonly number[]): Promise<void> {
  const answer = await exchange(url, `${line}\r\n${HOST}Content-Length: 0\r\nConnection: close\r\n\r\n`);
  expect([line, answer.statuses.length]).toEqual([line, 1]);
  expect([line, allowed.includes(answer.statuses[0]!)]).toEqual([line, true]);
  if (answer.statuses[0] === 405) expect(answer.head).toMatch(/\r\nAllow: (GET|POST)/i);
  expect(answer.head).not.toMatch(/cache-control: public/i);
  expect(answer.closed).toBe(true);
}

describeWithRedis()('methods and slow clients, directly', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ env: { REQUEST_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS), PURGE_SECRET: 'a-publish-hook-secret-of-the-slow-client-suite' } });
  });
  afterAll(() => t?.close());

  it.each(METHODS)('%s gets a status', async (line, allowed) => {
    await expectAnswered(t.url, line, allowed);
  });

  it('a connection that sends nothing: 408 at the deadline, closed, counted', async () => {
    const before = await readTimeouts(t, 'headers');
    const answer = await exchange(t.url, '');
    expect([answer.statuses, answer.closed]).toEqual([[408], true]);
    expect(await readTimeouts(t, 'headers')).toBe(before + 1);
  });

  it('headers trickled a byte at a time: 408 at the deadline, the connection closed, counted', async () => {
    const before = await readTimeouts(t, 'headers');
    const answer = await exchange(t.url, `GET /about HTTP/1.1\r\n${HOST}X-Slow: `, 'a'.repeat(200));
    expect(answer.statuses).toEqual([408]);
    expect(answer.closed).toBe(true);
    expect(await readTimeouts(t, 'headers')).toBe(before + 1);
  });

  it.each(['/api/common/feedback', '/api/user/profile', '/_internal/purge'])(
    'a body trickled to %s, a route that reads it: 408 at the deadline, the connection closed, counted',
    async (path) => {
      const before = await readTimeouts(t, 'body');
      const answer = await exchange(t.url, ...trickledPost(path));
      expect(answer.statuses).toEqual([408]);
      expect(answer.head).toMatch(/\r\nConnection: close/i);
      expect(answer.closed).toBe(true);
      expect(await readTimeouts(t, 'body')).toBe(before + 1);
    },
  );

  it.each(['/login/callback', '/_data/page?path=/about', '/about'])(
    'a body trickled to %s, answered without reading it: one answer, and the connection closed at the deadline',
    async (path) => {
      const answer = await exchange(t.url, ...trickledPost(path, 400));
      expect(answer.statuses.length).toBe(1);
      expect(answer.statuses[0]).toBeGreaterThanOrEqual(400);
      expect(answer.closed).toBe(true);
    },
  );
});

describeWithRedis()('methods and slow clients on the internal port', () => {
  let t: TestPortal;
  let internal: InternalListener | null;
  beforeAll(async () => {
    const port = await freePort();
    t = await startTestPortal({
      env: { INTERNAL_PORT: String(port), REQUEST_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS), PURGE_SECRET: 'a-publish-hook-secret-of-the-slow-client-suite' },
    });
    internal = await listenInternal(t.portal, port, '127.0.0.1');
  });
  afterAll(async () => {
    await internal?.close();
    await t?.close();
  });

  it.each(METHODS.filter(([line]) => !line.includes('/api/')))('%s gets a status', async (line, allowed) => {
    const answer = await exchange(internal!.url, `${line}\r\n${HOST}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(answer.statuses.length).toBe(1);
    expect([404, ...allowed]).toContain(answer.statuses[0]);
    expect(answer.closed).toBe(true);
  });

  it('headers and a hook body trickled a byte at a time: 408 at the deadline, the connection closed', async () => {
    const headers = await exchange(internal!.url, `GET /metrics HTTP/1.1\r\n${HOST}X-Slow: `, 'a'.repeat(200));
    const body = await exchange(internal!.url, ...trickledPost('/_internal/purge'));
    expect([headers.statuses, headers.closed, body.statuses, body.closed]).toEqual([[408], true, [408], true]);
  });
});

describeWithVarnish()('methods and slow clients through the edge', () => {
  const suite = portalsBehindVarnish({
    purgeToken: 'edge-purge-token-of-the-slow-client-suite',
    env: () => ({ REQUEST_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS) }),
  });

  it.each(METHODS)('%s gets a status (never 503)', async (line, allowed) => {
    await expectAnswered(suite.varnish.url, line, allowed);
  });

  it('a body trickled to /api/common/feedback: a 408, the connection closed', async () => {
    const answer = await exchange(suite.varnish.url, ...trickledPost('/api/common/feedback'));
    expect(answer.statuses).toEqual([408]);
    expect(answer.closed).toBe(true);
  });

  // varnishd reads the headers itself: its timeout_idle (5 s by default) closes the connection; it has no status to send.
  it('headers trickled a byte at a time: the connection closed, a 408 the only answer it may get', async () => {
    const answer = await exchange(suite.varnish.url, `GET /about HTTP/1.1\r\n${HOST}X-Slow: `, 'a'.repeat(200));
    expect(answer.statuses.length).toBeLessThanOrEqual(1);
    if (answer.statuses.length === 1) expect(answer.statuses[0]).toBe(408);
    expect(answer.closed).toBe(true);
  });
});
