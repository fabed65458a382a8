import { Agent, request as httpRequest } from 'node:http';
import { HOT_NEWS_ID } from '../../../shared/constants';
import type { RawArticleList } from '../../../server/upstream/wire';
import type { Envelope } from '../../../shared/types/envelope';
import { startReferenceApi, type RunningReferenceApi } from '../../../scripts/reference-api/server';
import { NOW, SEED } from './fixtures';

interface CallResult {
  status: number;
  text: string;
  ms: number;
}

interface CallOptions {
  method?: string;
  body?: unknown;
  timeoutMs?: number;
  agent?: Agent;
}

/** Plain node:http so each test decides about keep-alive and timeouts itself. */
function call(url: string, options: CallOptions = {}): Promise<CallResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        agent: options.agent ?? false,
        headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ms: Date.now() - started }));
        res.on('error', reject);
      },
    );
    if (options.timeoutMs !== undefined) req.setTimeout(options.timeoutMs, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

async function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('startReferenceApi', () => {
  let server: RunningReferenceApi;

  beforeAll(async () => {
    server = await startReferenceApi({ seed: SEED, now: NOW, port: 0 });
  });

  afterAll(async () => {
    await server.close();
  });

  afterEach(() => {
    server.api.control.reset();
  });

  it('listens on an ephemeral loopback port and uses its own URL for media', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect((await call(`${server.url}/healthz`)).text).toBe('ok');
    const list = JSON.parse((await call(`${server.url}/list/${HOT_NEWS_ID}/1.html?pagesize=50`)).text) as Envelope<RawArticleList>;
    const thumbs = list.data.lists.map((item) => item.thumb).filter((thumb) => thumb !== '');
    expect(thumbs.length).toBeGreaterThan(0);
    for (const thumb of thumbs) expect(thumb.startsWith(`${server.url}/media/img/`)).toBe(true);
    const image = await call(thumbs[0] ?? '');
    expect(image.status).toBe(200);
    // Pictures are JPEGs (decoded and checked in pictures.test.ts).
    expect(thumbs[0]).toMatch(/\.jpg$/);
  });

  it('delays only the paths a latency rule matches', async () => {
    const set = await call(`${server.url}/__control/latency`, { method: 'POST', body: [{ path: `/list/${HOT_NEWS_ID}/`, ms: 300 }] });
    expect(set.status).toBe(200);
    const delayed = await call(`${server.url}/list/${HOT_NEWS_ID}/1.html`);
    const other = await call(`${server.url}/list/2728/1.html`);
    expect(delayed.status).toBe(200);
    // Coarse bounds: timers may fire a little early and CI machines are slow.
    expect(delayed.ms).toBeGreaterThanOrEqual(290);
    expect(other.ms).toBeLessThan(250);
  });

  it('applies latency set through the control object too', async () => {
    server.api.control.setLatency([{ path: '/api/common/grey_mode', ms: 200 }]);
    expect((await call(`${server.url}/api/common/grey_mode`)).ms).toBeGreaterThanOrEqual(190);
    server.api.control.reset();
    expect((await call(`${server.url}/api/common/grey_mode`)).ms).toBeLessThan(150);
  });

  it('hangs a matching request until the client gives up, and still counts it', async () => {
    await call(`${server.url}/__control/failures`, { method: 'POST', body: { rules: [{ path: '/theme/list/', mode: 'hang' }] } });
    await expect(call(`${server.url}/theme/list/1`, { timeoutMs: 200 })).rejects.toThrow('client timeout');
    expect(server.api.control.stats().byPath['GET /theme/list/1?']).toBe(1);
    expect((await call(`${server.url}/theme/get/101`)).status).toBe(200);
    expect((await call(`${server.url}/api/common/grey_mode`)).status).toBe(200);
  });

  it('answers HTTP 500 and truncated JSON over the wire', async () => {
    server.api.control.setFailures([
      { path: '/api/ad/top', mode: 'http500' },
      { path: '/api/common/get_menu_list', mode: 'badjson' },
    ]);
    expect((await call(`${server.url}/api/ad/top?catid=1`)).status).toBe(500);
    const bad = await call(`${server.url}/api/common/get_menu_list`);
    expect(bad.status).toBe(200);
    expect(() => JSON.parse(bad.text) as unknown).toThrow();
  });

  it('sends a set answer in place of the real one for the paths it matches, until reset', async () => {
    const wrong = { code: 0, msg: 'ok', data: { lists: 'not a list' } };
    const set = await call(`${server.url}/__control/answers`, { method: 'POST', body: [{ path: '/list/', body: wrong }] });
    expect(set.status).toBe(200);
    const answered = await call(`${server.url}/list/${HOT_NEWS_ID}/1.html?pagesize=5`);
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.text)).toEqual(wrong);
    // Other paths answer as before.
    expect(JSON.parse((await call(`${server.url}/api/common/grey_mode`)).text)).toMatchObject({ code: 0 });
    expect((await call(`${server.url}/__control/answers`, { method: 'POST', body: [{ path: 'list', body: 1 }] })).status).toBe(400);
    await call(`${server.url}/__control/reset`, { method: 'POST' });
    expect(JSON.parse((await call(`${server.url}/list/${HOT_NEWS_ID}/1.html?pagesize=5`)).text)).toMatchObject({ code: 0, data: { lists: expect.any(Array) } });
  });
});

describe('close()', () => {
  it('ends hanging requests and keep-alive sockets instead of waiting for them', async () => {
    const server = await startReferenceApi({ seed: SEED, now: NOW });
    const agent = new Agent({ keepAlive: true });
    try {
      // An idle keep-alive socket…
      expect((await call(`${server.url}/api/common/grey_mode`, { agent })).status).toBe(200);
      // …and a request the server will never answer.
      server.api.control.setFailures([{ path: '/list/', mode: 'hang' }]);
      const hanging = call(`${server.url}/list/${HOT_NEWS_ID}/1.html`);
      const outcome = hanging.then(
        () => 'answered',
        () => 'dropped',
      );
      await waitFor(() => server.api.control.stats().total >= 2);
      // Resolves without the hanging request's answer (it never comes: a close waiting for it would not end).
      await server.close();
      expect(await outcome).toBe('dropped');
      await server.close(); // idempotent
    } finally {
      agent.destroy();
    }
  });

  it('ends a request waiting out its latency', async () => {
    const server = await startReferenceApi({ seed: SEED, now: NOW, latency: [{ path: '/', ms: 10_000 }] });
    const pending = call(`${server.url}/api/common/grey_mode`).then(
      () => 'answered',
      () => 'dropped',
    );
    await waitFor(() => server.api.control.stats().total >= 1);
    await server.close();
    expect(await pending).toBe('dropped');
  });

  it('refuses to bind anywhere but loopback', async () => {
    await expect(startReferenceApi({ seed: SEED, now: NOW, host: '0.0.0.0' })).rejects.toThrow('loopback');
  });

  it('serves no control plane when asked not to (as it must beyond loopback)', async () => {
    const api = await startReferenceApi({ seed: SEED, now: NOW, controlPlane: false });
    try {
      const stats = await fetch(`${api.url}/__control/stats`);
      expect(stats.status).toBe(404);
      const reset = await fetch(`${api.url}/__control/reset`, { method: 'POST' });
      expect(reset.status).toBe(404);
      expect((await fetch(`${api.url}/api/common/grey_mode`)).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
