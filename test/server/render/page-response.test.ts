/**
 * The one response path for pages (server/edge/page-response.ts): which headers a HIT, a STALE, a page stored
 * for this request, a streamed MISS or PASS and an error page get, decided in one place for the hit path and the
 * chain; a held page as writeHeld puts it on the wire for both.
 */
import http from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { Cache } from '../../../server/cache/cache';
import type { CachePolicy } from '../../../server/cache/entry';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PageCache, type PageLookup } from '../../../server/cache/page-cache';
import { pagePolicyFor } from '../../../server/cache/policy';
import { etagOf } from '../../../server/cache/stored-page';
import { securityHeaders } from '../../../server/edge/security';
import {
  ageOf,
  errorHeaders,
  HeldHeads,
  notePage,
  pageFactsOf,
  streamedHeaders,
  writeHeld,
  type Header,
  type WrittenState,
} from '../../../server/edge/page-response';

const NONCE = 'cmVuZGVyLW5vbmNlLTAwMDE=';
const HTML = `<!DOCTYPE html><html><head><script nonce="${NONCE}">1</script></head><body>青年新闻网</body></html>`;
const POLICY: CachePolicy = pagePolicyFor('detail');
const SHARED = `public, max-age=0, s-maxage=${POLICY.ttl}, stale-while-revalidate=${POLICY.grace}, stale-if-error=${POLICY.staleIfError}`;

function asObject(headers: readonly Header[]): Record<string, string> {
  return Object.fromEntries(headers);
}

async function heldLookup(tags: string[], storedAt = Date.now()): Promise<PageLookup> {
  const pageCache = new PageCache(new Cache(new MemoryStore(1024 * 1024)), { prefix: 'response', buildId: 'b1' });
  const key = pageCache.keyFor(0, '/detail/2728/33727');
  await pageCache.store(key, POLICY, HTML, NONCE, { tags: tags });
  const lookup = await pageCache.lookup(key);
  if (!lookup) throw new Error('the page was not held');
  return { ...lookup, storedAt };
}

describe('page response headers', () => {
  it('counts Age in whole seconds since the page was stored, never below 0', async () => {
    const lookup = await heldLookup([], 1_000_000);
    expect(ageOf(lookup, 1_000_000 + 2_999)).toBe(2);
    expect(ageOf(lookup, 1_000_000 - 5_000)).toBe(0);
  });

  it('shares a rendered MISS only when told it may, with the page tags', () => {
    const shared = streamedHeaders({
      state: 'MISS',
      status: 200,
      sharing: { policy: POLICY, tags: ['page:detail', 'site:0'] },
      upstreamMs: 3.25,
      renderMs: 10,
    });
    expect(asObject(shared)).toEqual({
      'X-Cache': 'MISS',
      'Cache-Control': SHARED,
      'Surrogate-Key': 'page:detail site:0',
      'Server-Timing': 'cache;desc="MISS", upstream;dur=3.3, render;dur=10.0',
    });
    const unshared = asObject(streamedHeaders({ state: 'MISS', status: 200, sharing: null, upstreamMs: 0, renderMs: 1 }));
    expect(unshared['Cache-Control']).toBe('private, no-store');
    expect(unshared['Surrogate-Key']).toBeUndefined();
  });

  it('marks a PASS private and a 503 with Retry-After', () => {
    const pass = asObject(streamedHeaders({ state: 'PASS', status: 200, sharing: null, upstreamMs: 0, renderMs: 1 }));
    expect(pass).toMatchObject({ 'X-Cache': 'PASS', 'Cache-Control': 'private, no-store' });
    expect(pass['Retry-After']).toBeUndefined();
    const unavailable = asObject(streamedHeaders({ state: 'MISS', status: 503, sharing: null, upstreamMs: 0, renderMs: 1 }));
    expect(unavailable['Retry-After']).toBe('30');
  });

  it('never lets anyone keep the error page', () => {
    expect(errorHeaders()).toEqual([['Cache-Control', 'private, no-store']]);
  });
});

describe('page facts for the log and the metrics', () => {
  it('are kept where the access log and the metrics read them, also on a response without Express locals', () => {
    const socket = new Socket();
    const res = new http.ServerResponse(new http.IncomingMessage(socket));
    notePage(res, { route: 'detail', siteId: 3 });
    notePage(res, { upstreamMs: 12.345 });
    expect(pageFactsOf(res)).toEqual({ route: 'detail', siteId: 3 });
    expect((res as http.ServerResponse & { locals?: Record<string, unknown> }).locals?.upstreamMs).toBe(12.3);
    socket.destroy();
  });
});

/** A plain GET (fetch would add `Cache-Control: no-cache` beside If-None-Match, which asks for the page). */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; rawNames: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawNames: res.rawHeaders.filter((_, index) => index % 2 === 0),
            body: Buffer.concat(parts).toString('utf8'),
          }),
        );
      })
      .on('error', reject);
  });
}

describe('a held page on the wire', () => {
  let server: http.Server;
  let base = '';
  let lookup: PageLookup;
  let untagged: PageLookup;

  beforeAll(async () => {
    lookup = await heldLookup(['article:33727', 'page:detail']);
    untagged = await heldLookup([]);
    const heads = new HeldHeads(securityHeaders({ mediaOrigins: [], https: false, frameOrigins: [] }));
    const security = securityHeaders({ mediaOrigins: [], https: false, frameOrigins: [] });
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://portal.test');
      // What the chain's middleware set before the page handler: this response's nonce CSP and a Vary.
      security.apply(res, 'cmVzcG9uc2Utbm9uY2UtMDAwMQ==');
      res.setHeader('Vary', 'User-Agent');
      const state: WrittenState = url.searchParams.has('stale') ? 'STALE' : url.searchParams.has('miss') ? 'MISS' : 'HIT';
      const held = url.pathname === '/untagged' ? untagged : lookup;
      writeHeld(req, res, heads, { state, lookup: held, policy: POLICY, requestId: 'req-0001', varyUserAgent: url.searchParams.has('ua') });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('gives a HIT and a STALE the same shareable headers, told apart by X-Cache and Server-Timing', async () => {
    const hit = await get(`${base}/`, { 'accept-encoding': 'gzip' });
    expect(hit.headers).toMatchObject({
      'x-request-id': 'req-0001',
      'x-cache': 'HIT',
      etag: etagOf(lookup.page, 'gzip'),
      age: expect.stringMatching(/^\d+$/),
      'cache-control': SHARED,
      'surrogate-key': 'article:33727 page:detail',
      'server-timing': 'cache;desc="HIT"',
      'content-encoding': 'gzip',
    });
    const stale = await get(`${base}/?stale`, { 'accept-encoding': 'gzip' });
    expect(stale.headers).toMatchObject({ 'x-cache': 'STALE', 'server-timing': 'cache;desc="STALE"', 'cache-control': SHARED, etag: hit.headers.etag });
    // A HIT's head is kept for the entry: the STALE after it was not answered with it, nor the HIT after that.
    expect((await get(`${base}/`, { 'accept-encoding': 'gzip' })).headers['x-cache']).toBe('HIT');
  });

  it('gives a page rendered and stored for this request (MISS) the held headers, its ETag, shared', async () => {
    const miss = await get(`${base}/?miss`, { 'accept-encoding': 'br' });
    expect(miss.headers).toMatchObject({
      'x-cache': 'MISS',
      etag: etagOf(lookup.page, 'br'),
      'cache-control': SHARED,
      'surrogate-key': 'article:33727 page:detail',
      'server-timing': 'cache;desc="MISS"',
      'content-encoding': 'br',
    });
    const revalidated = await get(`${base}/?miss`, { 'accept-encoding': 'br', 'if-none-match': etagOf(lookup.page, 'br') });
    expect(revalidated).toMatchObject({ status: 304, headers: { 'x-cache': 'MISS', etag: etagOf(lookup.page, 'br') } });
  });

  it('leaves Surrogate-Key out when a held page has no tags', async () => {
    const page = await get(`${base}/untagged`);
    expect(page.status).toBe(200);
    expect(page.headers['surrogate-key']).toBeUndefined();
  });

  it('sends each header once, in place of what the middleware set: the page CSP, one Vary, the request id', async () => {
    for (const target of ['/', '/?ua']) {
      const page = await get(`${base}${target}`);
      const names = page.rawNames.map((name) => name.toLowerCase());
      expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
      expect(page.headers.vary).toBe(target === '/' ? 'Accept-Encoding' : 'User-Agent, Accept-Encoding');
      expect(page.headers['content-security-policy']).not.toContain('nonce-');
    }
  });

  it('is the stored bytes with the CSP of their hashes, and answers a current copy with a 304 that keeps the 200 headers', async () => {
    const page = await get(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.body).toBe(HTML.split(` nonce="${NONCE}"`).join(''));
    expect(page.headers['content-security-policy']).toContain(`script-src ${lookup.page.scripts} 'strict-dynamic'`);
    expect(page.headers['content-security-policy']).not.toContain('nonce-');
    const revalidated = await get(`${base}/`, { 'if-none-match': etagOf(lookup.page, 'identity') });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe('');
    for (const name of ['etag', 'cache-control', 'surrogate-key', 'x-cache', 'vary', 'content-security-policy'])
      expect([name, revalidated.headers[name]]).toEqual([name, page.headers[name]]);
    // A reload (Cache-Control: no-cache) gets the page even with a matching tag.
    expect((await get(`${base}/`, { 'if-none-match': etagOf(lookup.page, 'identity'), 'cache-control': 'no-cache' })).status).toBe(200);
    // Each coding is its own representation: the identity tag does not validate the gzip form.
    expect((await get(`${base}/`, { 'if-none-match': etagOf(lookup.page, 'identity'), 'accept-encoding': 'gzip' })).status).toBe(200);
  });
});
