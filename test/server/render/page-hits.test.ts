/**
 * Fresh cached pages answered in front of Express (server/edge/page-hits.ts): which requests it takes, and
 * HTTP's caching rules kept by it and by the chain (both write a held page with page-response.ts's writeHeld).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { encodeReaderCookie } from '../../../shared/reader-cookie';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Cache } from '../../../server/cache/cache';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PageCache } from '../../../server/cache/page-cache';
import type { CachePolicy } from '../../../server/cache/entry';
import { pagePolicyFor } from '../../../server/cache/policy';
import { createLogger } from '../../../server/platform/logger';
import { Metrics } from '../../../server/platform/metrics';
import { newNonce, securityHeaders } from '../../../server/edge/security';
import { pageHits } from '../../../server/edge/page-hits';
import { HeldHeads } from '../../../server/edge/page-response';
import { takeLookup } from '../../../server/edge/page-request';
import { REGIONAL_SITES } from '../../../shared/sites';
import type { TestPortal } from '../../support/portal';
import { redisPortalSuite } from '../../support/redis-portal';
import { describeWithRedis } from '../../support/requirements';
import { eventually } from '../cache/redis-helpers';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Raw header names in the order sent. */
  names: string[];
  body: Buffer;
}

/** A reader cookie as sign-in sets it. */
const READER = encodeReaderCookie({ user_id: 42, nickname: '缓存读者', avatar: '' });

function send(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            names: res.rawHeaders.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase()),
            body: Buffer.concat(parts),
          }),
        );
      })
      .on('error', reject)
      .end();
  });
}

function htmlOf(answer: Answer): string {
  const coding = answer.headers['content-encoding'];
  if (coding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

// ---- which requests it takes (a page cache of its own, a fallback that records what reached it) ----

const RENDER_NONCE = 'cmVuZGVyLW5vbmNlLTAwMDE=';
const PAGE_HTML = `<!DOCTYPE html><html><head><script nonce="${RENDER_NONCE}">1</script></head><body>青年新闻网</body></html>`;
/** The page as stored and sent to every reader: the render's nonce out, its script allowed by its hash. */
const STORED_HTML = PAGE_HTML.replace(` nonce="${RENDER_NONCE}"`, '');
const SCRIPT_HASH = "'sha256-a4ayc/80/OGda4BO/1o/V0etpOqiLx1JwB5S3beHW0s='";

describe('page hits in front of Express', () => {
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    }),
  );
  const metrics = new Metrics({ l1Bytes: () => 0, redisUp: () => Promise.resolve(null) });
  const l1 = new MemoryStore(8 * 1024 * 1024);
  const pageCache = new PageCache(new Cache(l1), { prefix: 'hits', buildId: 'b1' });
  let lookups = 0;
  const countingCache = new Proxy(pageCache, {
    get(target, property, receiver) {
      if (property === 'lookup') return (key: string) => (lookups++, target.lookup(key));
      // An answer in the same turn (a page the in-process store holds, or a miss it can tell) is a lookup too.
      if (property === 'lookupNow')
        return (key: string) => {
          const found = target.lookupNow(key);
          if (found !== undefined) lookups++;
          return found;
        };
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  const fellThrough: string[] = [];
  /** What the fallback was handed with each request it got, in order. */
  const carriedRequests: Array<ReturnType<typeof takeLookup>> = [];
  /** A page policy the tests may swap in, as a runtime override does (a new policy object). */
  let policyOverride: CachePolicy | null = null;
  let server: http.Server;
  let base = '';

  const fallback = (req: IncomingMessage, res: ServerResponse) => {
    fellThrough.push(`${req.method} ${req.url}`);
    // What the page handler does with the page request and lookup this path already made.
    const carried = takeLookup(req);
    carriedRequests.push(carried);
    res.setHeader('X-Fallback', carried ? (carried.lookup?.freshness ?? 'none') : 'not looked up');
    if (carried) res.setHeader('X-Fallback-Key', carried.request.key);
    res.end('fallback');
  };

  beforeAll(async () => {
    const handler = pageHits(
      {
        pageCache: countingCache,
        cachePolicy: { page: (kind) => policyOverride ?? pagePolicyFor(kind), data: () => pagePolicyFor('default') },
        logger,
        metrics,
        heads: new HeldHeads(securityHeaders({ mediaOrigins: [], https: true, frameOrigins: [] })),
      },
      fallback,
    );
    server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await pageCache.store(pageCache.keyFor(0, '/home'), pagePolicyFor('home'), PAGE_HTML, RENDER_NONCE, { tags: ['page:home', 'site:0'] });
    await pageCache.store(pageCache.keyFor(0, '/detail/2728/33727'), pagePolicyFor('detail'), PAGE_HTML, RENDER_NONCE, { tags: ['page:detail'] });
    await pageCache.store(pageCache.keyFor(0, '/personalCenter'), pagePolicyFor('personalCenter'), PAGE_HTML, RENDER_NONCE, { tags: ['page:personalCenter'] });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    fellThrough.length = 0;
    carriedRequests.length = 0;
    lookups = 0;
    policyOverride = null;
  });

  it('answers a fresh cached page itself: headers, the page CSP, log line and metrics', async () => {
    const answer = await send(`${base}/home?utm_source=x`, { 'accept-encoding': 'gzip, br', 'x-request-id': 'trace-12345678' });
    expect(fellThrough).toEqual([]);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-cache']).toBe('HIT');
    expect(answer.headers['x-request-id']).toBe('trace-12345678');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['permissions-policy']).toContain('camera=()');
    expect(answer.headers['content-security-policy']).toContain(`script-src ${SCRIPT_HASH} 'strict-dynamic'`);
    expect(answer.headers['content-security-policy']).not.toContain('nonce-');
    expect(answer.headers['surrogate-key']).toBe('page:home site:0');
    expect(answer.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
    expect(htmlOf(answer)).toBe(STORED_HTML);
    const line = logs.find((entry) => entry.reqId === 'trace-12345678');
    expect(line).toMatchObject({ method: 'GET', path: '/home?utm_source=x', status: 200, cache: 'HIT', msg: 'request', site: 'www.qnnews.cn' });
    expect(line!.bytes).toBeGreaterThan(1000);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/portal_http_requests_total\{route="home-alias",status="200"\} 1/);
    expect(text).toMatch(/portal_cache_results_total\{kind="page",route="home-alias",site="www.qnnews.cn",result="HIT"\} 1/);
  });

  it('says Vary: User-Agent on article pages', async () => {
    const answer = await send(`${base}/detail/2728/33727`);
    expect(fellThrough).toEqual([]);
    expect(answer.headers.vary).toBe('User-Agent, Accept-Encoding');
  });

  it.each<[string, string, Record<string, string>, string?]>([
    ['a POST', '/home', {}, 'POST'],
    ['a session cookie without the reader cookie', '/home', { cookie: 'a=1; portal_session=' + 'f'.repeat(64) }],
    ['a signed-in reader asking for the personal center', '/personalCenter', { cookie: `portal_session=${'f'.repeat(64)}; portal_reader=${READER}` }],
    [
      'a signed-in reader asking for the personal center, cookies the other way round',
      '/personalCenter',
      { cookie: `portal_reader=${READER}; portal_session=${'f'.repeat(64)}` },
    ],
    ['a phone asking for an article', '/detail/2728/33727', { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' }],
    ['the search form', '/search?q=青年', {}],
    ['a path that is not a page', '/healthz', {}],
    ['a page not in the cache', '/V1/2728', {}],
  ])('leaves %s to Express', async (_name, path, headers, method = 'GET') => {
    const answer = await send(base + encodeURI(path), headers, method);
    expect(answer.body.toString()).toBe('fallback');
    expect(fellThrough).toHaveLength(1);
  });

  it.each<[string, string, string]>([
    ['a signed-in reader (session and reader cookies)', '/home', `portal_session=${'f'.repeat(64)}; portal_reader=${READER}`],
    ['a signed-in reader with other cookies around', '/detail/2728/33727', `a=1; portal_reader=${READER}; b=2; portal_session=${'f'.repeat(64)}`],
    ['a visitor asking for the personal center', '/personalCenter', 'a=1'],
    ['a reader cookie alone', '/personalCenter', `portal_reader=${READER}`],
  ])('answers %s from the cache itself', async (_name, path, cookie) => {
    const answer = await send(base + path, { cookie });
    expect(fellThrough).toEqual([]);
    expect(answer.headers['x-cache']).toBe('HIT');
    expect(htmlOf(answer)).toBe(STORED_HTML);
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['identity', undefined],
    ['identity;q=0, *;q=0', undefined],
  ])('answers Accept-Encoding %j itself, as stored (%s)', async (encoding, coding) => {
    const answer = await send(`${base}/home`, { 'accept-encoding': encoding });
    expect(fellThrough).toEqual([]);
    expect(answer.headers['content-encoding']).toBe(coding);
    expect(htmlOf(answer)).toBe(STORED_HTML);
  });

  it('hands a stale page to Express with the lookup it made, so the cache is asked once', async () => {
    const key = pageCache.keyFor(0, '/home');
    await pageCache.store(key, { ttl: 0, grace: 60, staleIfError: 0 }, PAGE_HTML, RENDER_NONCE, { tags: [] });
    try {
      const answer = await send(`${base}/home`);
      expect(fellThrough).toEqual(['GET /home']);
      expect(answer.headers['x-fallback']).toBe('stale');
      expect(answer.headers['x-fallback-key']).toBe(key);
      expect(lookups).toBe(1);
    } finally {
      await pageCache.store(key, pagePolicyFor('home'), PAGE_HTML, RENDER_NONCE, { tags: ['page:home', 'site:0'] });
    }
  });

  it('gives every response its own request id and Age, on an entry whose other headers it has sent before', async () => {
    const key = pageCache.keyFor(0, '/detail/2728/33727');
    const sentAt = Date.now();
    const first = await send(`${base}/detail/2728/33727`);
    const answeredAt = Date.now();
    const second = await send(`${base}/detail/2728/33727`, { 'x-request-id': 'trace-abcdefgh' });
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).toBe('trace-abcdefgh');
    expect((await send(`${base}/detail/2728/33727`)).headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    const entry = (await l1.get(key))!;
    // Whole seconds since the entry was stored, as of the moment the answer went out (a loaded machine may pass one).
    const age = Number(first.headers.age);
    expect(age).toBeGreaterThanOrEqual(Math.floor((sentAt - entry.storedAt) / 1000));
    expect(age).toBeLessThanOrEqual(Math.floor((answeredAt - entry.storedAt) / 1000));
    // The same entry (the same tags, page and policy: what the hit path keeps a head for) as if stored a minute ago.
    await l1.set(key, { ...entry, storedAt: entry.storedAt - 60_000 });
    try {
      const aged = await send(`${base}/detail/2728/33727`, { 'accept-encoding': 'gzip' });
      expect(Number(aged.headers.age)).toBeGreaterThanOrEqual(60);
      expect(aged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      // And a 304 of it: the same per-response values, no body headers.
      const revalidated = await send(`${base}/detail/2728/33727`, { 'accept-encoding': 'gzip', 'if-none-match': String(aged.headers.etag) });
      expect(revalidated.status).toBe(304);
      expect(Number(revalidated.headers.age)).toBeGreaterThanOrEqual(60);
      expect(revalidated.headers['content-length']).toBeUndefined();
      expect(revalidated.headers['content-encoding']).toBeUndefined();
    } finally {
      await l1.set(key, entry);
    }
  });

  it('sends the policy in force, a page stored again and the form asked for, not the head of an earlier hit', async () => {
    const key = pageCache.keyFor(0, '/home');
    const before = await send(`${base}/home`, { 'accept-encoding': 'gzip' });
    expect(before.headers['cache-control']).toContain(`s-maxage=${pagePolicyFor('home').ttl},`);
    policyOverride = { ttl: 7, grace: 8, staleIfError: 9 };
    const overridden = await send(`${base}/home`, { 'accept-encoding': 'gzip' });
    expect(overridden.headers['cache-control']).toBe('public, max-age=0, s-maxage=7, stale-while-revalidate=8, stale-if-error=9');
    policyOverride = null;
    const other = PAGE_HTML.replace('>1<', '>2<');
    await pageCache.store(key, pagePolicyFor('home'), other, RENDER_NONCE, { tags: ['page:home', 'site:0'] });
    try {
      for (const [encoding, coding] of [
        ['gzip', 'gzip'],
        ['br', 'br'],
        ['', undefined],
      ] as const) {
        const answer = await send(`${base}/home`, { 'accept-encoding': encoding });
        expect(answer.headers['content-encoding']).toBe(coding);
        expect(htmlOf(answer)).toBe(other.replace(` nonce="${RENDER_NONCE}"`, ''));
        expect(answer.headers['content-length']).toBe(String(answer.body.length));
        expect(answer.headers.etag).not.toBe(before.headers.etag);
        expect(answer.headers['content-security-policy']).not.toContain(SCRIPT_HASH);
        expect(answer.headers['content-security-policy']).toMatch(/script-src 'sha256-[A-Za-z0-9+/]{43}=' 'strict-dynamic'/);
      }
    } finally {
      await pageCache.store(key, pagePolicyFor('home'), PAGE_HTML, RENDER_NONCE, { tags: ['page:home', 'site:0'] });
    }
  });

  it('answers each site from its own entry, for any number of targets asked for', async () => {
    // Only site 0 holds these pages: another site's Host asks its own key, which holds nothing.
    const regional = await send(`${base}/home`, { host: REGIONAL_SITES[2]!.domain });
    expect(regional.body.toString()).toBe('fallback');
    expect(regional.headers['x-fallback-key']).toBe(pageCache.keyFor(REGIONAL_SITES[2]!.id, '/home'));
    expect((await send(`${base}/home`)).headers['x-cache']).toBe('HIT');
    // More distinct targets than the hit path keeps worked out (tracking parameters: the same page).
    for (let index = 0; index < 1100; index++) {
      const answer = await send(`${base}/home?utm_source=${index}`);
      if (answer.headers['x-cache'] !== 'HIT') throw new Error(`target ${index} was not a HIT`);
    }
    expect((await send(`${base}/home`, { host: REGIONAL_SITES[2]!.domain })).body.toString()).toBe('fallback');
    expect((await send(`${base}/home`)).headers['x-cache']).toBe('HIT');
  });

  it('hands each request to Express with a page request of its own', async () => {
    await send(`${base}/V1/2728?x=1`);
    await send(`${base}/V1/2728?x=1`);
    expect(fellThrough).toEqual(['GET /V1/2728?x=1', 'GET /V1/2728?x=1']);
    const [first, second] = carriedRequests.map((carried) => carried!.request);
    expect(first!.key).toBe(second!.key);
    expect(first!.params.get('x')).toBe('1');
    expect(first!.params).not.toBe(second!.params);
    first!.params.set('x', 'changed');
    await send(`${base}/V1/2728?x=1`);
    expect(carriedRequests[2]!.request.params.get('x')).toBe('1');
  });

  it('never hands out a nonce twice', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => newNonce()));
    expect(seen.size).toBe(2000);
  });
});

/** A portal answering hits in front of Express and one answering them through the chain, on one Redis prefix. */
function hitPathAndChain() {
  return redisPortalSuite({ instances: 2, peer: { pageHits: false } });
}

// ---- HTTP caching semantics, alike on both paths ----

describeWithRedis()('conditional requests, Age and Accept-Encoding on the hit path and the chain', () => {
  const portals = hitPathAndChain();
  let fast: TestPortal;
  let chain: TestPortal;
  const ARTICLE = '/detail/2728/33727';
  const DESKTOP = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0)', 'accept-encoding': 'gzip, deflate, br' };

  beforeAll(async () => {
    ({ portal: fast, peer: chain } = portals);
    expect((await send(fast.url + ARTICLE, DESKTOP)).status).toBe(200);
    // The page is stored just after its first answer ends: both paths answer from it once Redis holds it.
    for (const url of [fast.url, chain.url]) {
      const held = await eventually(
        () => send(url + ARTICLE, DESKTOP),
        (answer) => answer.headers['x-cache'] === 'HIT',
        10_000,
      );
      expect(held.headers['x-cache']).toBe('HIT');
    }
  });

  /** Both portals' answers to the same request, each a HIT of the one shared entry. */
  async function both(path: string, headers: Record<string, string>): Promise<[Answer, Answer]> {
    return [await send(fast.url + path, headers), await send(chain.url + path, headers)];
  }

  it.each<[string, (etag: string) => string, number]>([
    ['the ETag itself', (etag) => etag, 304],
    ['its weak form', (etag) => `W/${etag}`, 304],
    ['a list holding it', (etag) => `"other", ${etag}, "more"`, 304],
    ['a list without spaces holding its weak form', (etag) => `"other",W/${etag}`, 304],
    ['*', () => '*', 304],
    ['another tag', () => '"other"', 200],
    ['another weak tag', () => 'W/"other"', 200],
    ['the ETag without its quotes', (etag) => etag.replace(/"/g, ''), 200],
  ])('If-None-Match with %s', async (_name, condition, expected) => {
    const [plainFast, plainChain] = await both(ARTICLE, DESKTOP);
    const etag = String(plainFast.headers.etag);
    expect(plainChain.headers.etag).toBe(etag);
    const answers = await both(ARTICLE, { ...DESKTOP, 'if-none-match': condition(etag) });
    for (const [answer, plain] of [
      [answers[0], plainFast],
      [answers[1], plainChain],
    ] as const) {
      expect(answer.status).toBe(expected);
      if (expected === 200) continue;
      // A 304 carries what its 200 would: ETag, Cache-Control, Vary (RFC 9110 §15.4.5), and no body.
      for (const name of ['etag', 'cache-control', 'vary', 'surrogate-key', 'x-cache'])
        expect([name, answer.headers[name]]).toEqual([name, plain.headers[name]]);
      expect(answer.headers.vary).toBe('User-Agent, Accept-Encoding');
      expect(answer.body.length).toBe(0);
    }
    if (expected === 304) expect(answers[0].names).toEqual(answers[1].names);
  });

  it('sends each header once on either path: the page CSP in place of the nonce one, one Vary, one request id', async () => {
    const answers = await both(ARTICLE, DESKTOP);
    for (const answer of answers) {
      expect(answer.headers['x-cache']).toBe('HIT');
      expect(answer.names.filter((name, index) => answer.names.indexOf(name) !== index)).toEqual([]);
      expect(answer.headers['content-security-policy']).not.toContain('nonce-');
      expect(answer.headers.vary).toBe('User-Agent, Accept-Encoding');
      expect(String(answer.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
    }
    // One document for every reader.
    expect(answers[0].body.equals(answers[1].body)).toBe(true);
  });

  it('answers an end-to-end reload (Cache-Control: no-cache) with the page even when the tag matches', async () => {
    const [plain] = await both(ARTICLE, DESKTOP);
    for (const answer of await both(ARTICLE, { ...DESKTOP, 'if-none-match': String(plain.headers.etag), 'cache-control': 'no-cache' })) {
      expect(answer.status).toBe(200);
    }
  });

  it('sends the whole TTL as s-maxage beside Age, so a shared cache counts the age once', async () => {
    // Wait (for the condition, not a fixed time) until the held page is at least a second old.
    let answers = await both(ARTICLE, DESKTOP);
    const deadline = Date.now() + 30_000;
    while (Number(answers[0].headers.age) < 1 || Number(answers[1].headers.age) < 1) {
      if (Date.now() > deadline) throw new Error('the cached page did not age within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
      answers = await both(ARTICLE, DESKTOP);
    }
    for (const answer of answers) {
      expect(answer.headers['x-cache']).toBe('HIT');
      expect(answer.headers['cache-control']).toContain(`s-maxage=${pagePolicyFor('detail').ttl},`);
    }
  });

  // [header, coding of a cached hit (the stored form the client ranks first), coding the compression middleware picks]
  it.each<[string, string | undefined, string | undefined]>([
    ['gzip;Q=0', undefined, undefined],
    ['GZIP; Q=0', undefined, undefined],
    ['gzip;q=0, identity', undefined, undefined],
    ['*;Q=0, identity', undefined, undefined],
    ['br, gzip;Q=0.000', 'br', 'br'],
    ['x-gzip', 'gzip', 'gzip'],
    ['X-GZIP;Q=0.5', 'gzip', 'gzip'],
    ['br;q=0.1, GZIP;Q=1', 'gzip', 'gzip'],
    ['br;q=1, GZIP;Q=0.1', 'br', 'br'],
  ])('Accept-Encoding %j → %s on hits, %s from the compression middleware', async (encoding, onHit, compressed) => {
    const headers = { ...DESKTOP, 'accept-encoding': encoding };
    for (const answer of await both(ARTICLE, headers)) {
      expect([answer.headers['x-cache'], answer.headers['content-encoding']]).toEqual(['HIT', onHit]);
      expect(htmlOf(answer)).toContain('</html>');
    }
    // Never cached: page data for a client navigation and a 404 page, both through the compression middleware.
    for (const path of ['/_data/page?path=%2Fabout', '/no-such-page/at-all']) {
      for (const answer of await both(path, headers)) expect([path, answer.headers['content-encoding']]).toEqual([path, compressed]);
    }
  });
});
