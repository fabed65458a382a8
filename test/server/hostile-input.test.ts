/**
 * The hostile-input corpus (test/fixtures/hostile-requests.ts) against a real portal on Redis: every case gets
 * its expected status and none may produce a 5xx, a reflected script, an off-site redirect, a leaked file, a
 * foreign host in a link, or a change to a page already in the cache.
 */
import { classifyPath } from '../../shared/canonical-path';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Redis from 'ioredis';
import type { CacheEntry } from '../../server/cache/entry';
import { decodeEntry } from '../../server/cache/entry-codec';
import { pageCodec } from '../../server/cache/page-cache';
import { setOverrides } from '../../server/cache/runtime-policy';
import { findRoute, routeSpelling } from '../../shared/routes';
import { hostileCorpus, type HostileCase } from '../fixtures/hostile-requests';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithRedis, testRedisUrl } from '../support/requirements';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(base: string, testCase: HostileCase): Promise<Answer> {
  const url = new URL(base);
  // Node refuses raw spaces in a request target; a client would send them encoded.
  const path = testCase.path.replace(/ /g, '%20');
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: testCase.method, path, headers: testCase.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function pageEntries(prefix: string): Promise<Map<string, Buffer>> {
  const client = new Redis(testRedisUrl());
  try {
    const keys = (await client.keys(`${prefix}:*:page:*`)).filter((key) => !key.includes(':tag:') && !key.includes(':lock:'));
    const entries = new Map<string, Buffer>();
    for (const key of keys) {
      const value = await client.getBuffer(key).catch(() => null);
      if (value !== null) entries.set(key, value);
    }
    return entries;
  } finally {
    client.disconnect();
  }
}

const LEAKS = [/"name":\s*"news-portal"/, /"compilerOptions"/, /createPortal\(/, /\[core\]/, /ssh-rsa/];
const REFLECTED = [/<script>alert\(1\)/i, /<img src=x onerror/i, /<svg onload/i];

function violations(testCase: HostileCase, answer: Answer): string[] {
  const problems: string[] = [];
  if (!testCase.status.includes(answer.status)) problems.push(`status ${answer.status}, expected ${testCase.status.join('|')}`);
  if (answer.status >= 500) problems.push(`server error ${answer.status}`);
  for (const pattern of REFLECTED) if (pattern.test(answer.body)) problems.push(`reflected ${pattern}`);
  for (const pattern of LEAKS) if (pattern.test(answer.body)) problems.push(`leaked ${pattern}`);
  // The requested path may come back as escaped text (the 404 page's state); never as a link, a header or a URL.
  if (/evil\.example/i.test(JSON.stringify(answer.headers))) problems.push('a foreign host reached a header');
  if (/(href|src|action|content)="[^"]*evil\.example/i.test(answer.body)) problems.push('a foreign host reached a link');
  const location = answer.headers.location;
  if (location && !(location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\'))) {
    problems.push(`off-site redirect to ${location}`);
  }
  if (answer.status === 301 && location) {
    const path = location.split('?', 1)[0] ?? '';
    const spelt = classifyPath(path).kind === 'canonical' && routeSpelling(path).kind === 'canonical';
    if (!spelt || /[<>"'\s]/.test(location)) problems.push(`301 to a non-canonical or raw ${location}`);
  }
  if (/at .+\.(ts|js):\d+:\d+/.test(answer.body)) problems.push('stack trace in body');
  return problems;
}

/**
 * A cached page must be byte-identical after the corpus, unless its TTL ran out during the run and it was
 * re-rendered (a later storedAt); then the new copy must carry nothing a hostile request sent.
 */
/** What an entry holds as text: a feed's body, or a page's HTML. */
function textOf(entry: CacheEntry): string {
  if (typeof entry.value === 'string') return entry.value;
  return pageCodec.decode(entry.value).identity.toString('utf8');
}

function unchangedOrRefreshed(before: Buffer, after: Buffer | undefined): boolean {
  if (after === undefined || after.equals(before)) return after !== undefined;
  const old = decodeEntry(before);
  const fresh = decodeEntry(after);
  if (!old || !fresh) return false;
  return fresh.storedAt > old.storedAt && !/evil\.example|<script>alert|onerror=alert/i.test(textOf(fresh));
}

describeWithRedis()('hostile-input corpus', () => {
  let t: TestPortal;
  const corpus = hostileCorpus();

  beforeAll(async () => {
    // Pages must not turn stale while the corpus runs (home's TTL is 30 s; a slow machine takes longer), or a
    // legitimate refresh would read as a page the corpus changed.
    const cachePrefix = `t${randomBytes(6).toString('hex')}`;
    const client = new Redis(testRedisUrl());
    try {
      await setOverrides(client, cachePrefix, { page: { home: { ttl: 3600 }, detail: { ttl: 3600 }, default: { ttl: 3600 } } });
    } finally {
      client.disconnect();
    }
    t = await startTestPortal({ redisUrl: testRedisUrl(), cachePrefix });
  });
  afterAll(async () => {
    const client = new Redis(testRedisUrl());
    const keys = await client.keys(`${t.cachePrefix}:*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
    await t.close();
  });

  it('has at least 300 cases', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
  });

  it('answers every case as expected, leaks nothing, and changes no cached page', async () => {
    for (const path of ['/', '/about', '/V1/2728', '/specialColumn']) {
      await send(t.url, { name: 'prime', method: 'GET', path, status: [200] });
    }
    const before = await pageEntries(t.cachePrefix);
    expect(before.size).toBeGreaterThanOrEqual(4);

    // Whatever a reader sends is logged as JSON or not at all: nothing a library prints on the console.
    const printed = [jest.spyOn(console, 'warn'), jest.spyOn(console, 'error'), jest.spyOn(console, 'log')];
    const failures: string[] = [];
    const queue = [...corpus];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const answer = await send(t.url, next);
        const problems = violations(next, answer);
        if (problems.length > 0) failures.push(`${next.name}: ${problems.join('; ')}`);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const lines = printed.flatMap((spy) => spy.mock.calls.map((call) => String(call[0]).slice(0, 200)));
    for (const spy of printed) spy.mockRestore();
    expect(failures).toEqual([]);
    expect(lines).toEqual([]);

    const after = await pageEntries(t.cachePrefix);
    for (const [key, value] of before) expect([key, unchangedOrRefreshed(value, after.get(key))]).toEqual([key, true]);
    for (const key of after.keys()) {
      const path = key.slice(key.indexOf(':page:') + ':page:'.length).replace(/^\d+:/, '');
      const pathname = path.split('?')[0]!;
      const isFeed = pathname.startsWith('/rss/') || pathname.startsWith('/sitemaps/');
      expect([key, isFeed || findRoute(pathname).kind === 'page']).toEqual([key, true]);
      // One entry per page: never one for another spelling of a search keyword or a tag page's title.
      expect([key, routeSpelling(pathname).kind]).toEqual([key, 'canonical']);
      expect(key).not.toMatch(/evil|<|>|\s/);
    }
    const health = await send(t.url, { name: 'health', method: 'GET', path: '/healthz', status: [200] });
    expect(health.status).toBe(200);
  }, 120_000);
});
