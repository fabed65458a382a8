/**
 * The page and data caches on a real Redis: hits, keys, coalescing, surviving a Redis outage, and cached pages
 * served precompressed with a fresh nonce per response.
 */
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { Cache } from '../../../server/cache/cache';
import { decodeEntry, encodeEntry } from '../../../server/cache/entry-codec';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PageCache } from '../../../server/cache/page-cache';
import { HOME_CATID } from '../../../shared/constants';
import { REGIONAL_SITES } from '../../../shared/sites';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { OwnRedis } from '../../support/redis-server';
import { pageKeyOf, startTestPortal, type TestPortal } from '../../support/portal';
import { signIn, TEST_APP_ID } from '../../support/sign-in';
import { firstHomeArticle } from '../../support/upstream-data';
import { bodyNonces, htmlOf, rawGet, type RawAnswer } from '../../support/http';
import { ageEntries, eventually, keysOf, withRedis } from './redis-helpers';

describeWithRedis()('page cache on Redis', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ redisUrl: testRedisUrl(), env: { WECHAT_APP_ID: TEST_APP_ID } });
  });
  afterAll(async () => {
    const client = new Redis(testRedisUrl());
    const keys = await client.keys(`${t.cachePrefix}:*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
    await t.close();
  });

  it('serves the second anonymous request from Redis as a HIT with an ETag and 304', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const path = `/detail/${raw.catid}/${raw.id}`;
    const first = await request(t.url).get(path);
    expect(first.headers['x-cache']).toBe('MISS');
    const second = await request(t.url).get(path);
    expect(second.status).toBe(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.headers['server-timing']).toContain('cache;desc="HIT"');
    expect(second.text).toContain(raw.title.slice(0, 4));
    const etag = second.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+-gzip"$/);
    const revalidated = await request(t.url).get(path).set('If-None-Match', etag);
    expect(revalidated.status).toBe(304);
    // The page's own CSP, the one its 200 carries: the same for every reader.
    expect(revalidated.headers['content-security-policy']).toBe(second.headers['content-security-policy']);
  });

  it('keys pages by site id, never by the Host header', async () => {
    const site = REGIONAL_SITES[4]!;
    await request(t.url).get('/').set('Host', site.domain);
    await request(t.url).get('/').set('Host', `${site.domain.toUpperCase()}:443`);
    const keys = await keysOf(testRedisUrl(), t.cachePrefix);
    const pageKeys = keys.filter((key) => key.includes(':page:'));
    expect(pageKeys).toContain(pageKeyOf(t, site.id, '/'));
    for (const key of keys) expect(key.toLowerCase()).not.toContain(site.domain);
    const poisoned = await request(t.url).get('/').set('Host', 'evil.example');
    expect(poisoned.text).not.toContain('evil.example');
  });

  it('a session without the reader cookie (signed in before it existed) gets a private render, never stored', async () => {
    const session = await signIn(t, '缓存读者');
    const res = await request(t.url).get('/home').set('Cookie', `portal_session=${session}`);
    expect(res.headers['x-cache']).toBe('PASS');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const again = await request(t.url).get('/home').set('Cookie', `portal_session=${session}`);
    expect(again.headers['x-cache']).toBe('PASS');
  });

  it('a session cookie the server does not know is just an anonymous reader', async () => {
    await request(t.url).get('/home');
    const res = await request(t.url).get('/home').set('Cookie', 'portal_session=reader-1');
    expect(res.headers['x-cache']).toMatch(/HIT|STALE/);
  });

  it('makes one upstream call per key for 50 concurrent cold requests', async () => {
    const cold = await startTestPortal({ redisUrl: testRedisUrl(), upstream: t.upstream });
    try {
      const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
      t.upstream.api.control.reset();
      t.upstream.api.control.setLatency([{ path: '/', ms: 50 }]);
      const responses = await Promise.all(Array.from({ length: 50 }, () => request(cold.url).get(`/detail/${raw.catid}/${raw.id}`)));
      expect(responses.every((res) => res.status === 200)).toBe(true);
      const { byPath, total } = t.upstream.api.control.stats();
      expect(total).toBeGreaterThan(3);
      for (const [path, count] of Object.entries(byPath)) expect([path, count]).toEqual([path, 1]);
    } finally {
      t.upstream.api.control.reset();
      await cold.close();
    }
  });
});

describeWithRedis()('Redis outage', () => {
  let redis: OwnRedis;
  let t: TestPortal;
  beforeAll(async () => {
    redis = await OwnRedis.start();
    t = await startTestPortal({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('keeps serving while Redis is down, says degraded, and caches again when it returns', async () => {
    await request(t.url).get('/');
    expect((await request(t.url).get('/')).headers['x-cache']).toBe('HIT');
    expect((await request(t.url).get('/readyz')).body).toMatchObject({ status: 'ready', checks: { redis: 'up' } });

    await redis.stop();
    const during = await request(t.url).get('/');
    expect(during.status).toBe(200);
    // L1 keeps answering what it holds (for at most L1_OUTAGE_SERVE_S): test/server/cache/redis-outage.test.ts.
    expect(during.headers['x-cache']).toBe('HIT');
    expect(during.text).toContain('home-grid');
    const uncached = await request(t.url).get('/about');
    expect(uncached.status).toBe(200);
    expect(uncached.headers['x-cache']).toBe('MISS');
    const ready = await request(t.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'degraded', checks: { redis: 'down' } });

    await redis.startProcess();
    const back = await eventually(
      () => request(t.url).get('/readyz'),
      (res) => res.body?.checks?.redis === 'up',
    );
    expect(back.body.checks.redis).toBe('up');
    await request(t.url).get('/');
    expect((await request(t.url).get('/')).headers['x-cache']).toBe('HIT');
  });
});

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

describeWithRedis()('cached pages served as stored', () => {
  let withL1: TestPortal;
  let redisOnly: TestPortal;
  const path = '/home';

  beforeAll(async () => {
    withL1 = await startTestPortal({ redisUrl: testRedisUrl() });
    redisOnly = await startTestPortal({ redisUrl: testRedisUrl(), upstream: withL1.upstream, cachePrefix: withL1.cachePrefix, env: { L1_CACHE_MAX_MB: '0' } });
    await rawGet(withL1.url + path);
    // Stored in L1, then in Redis: under load the Redis portal's first read could come between the two.
    expect((await eventuallyHit(redisOnly.url + path)).headers['x-cache']).toBe('HIT');
  });
  afterAll(async () => {
    await withRedis(testRedisUrl(), async (client) => {
      const keys = await client.keys(`${withL1.cachePrefix}:*`);
      if (keys.length > 0) await client.del(...keys);
    });
    await redisOnly.close();
    await withL1.close();
  });

  it.each([
    ['L1', () => withL1.url],
    ['Redis (L1 off)', () => redisOnly.url],
  ])('from %s: brotli, gzip or identity as the client takes it, the same bytes and CSP for every reader', async (_tier, base) => {
    const texts = new Set<string>();
    const policies = new Set<string>();
    const bodies = new Map<string, Buffer>();
    const cases: Array<[Record<string, string>, string | undefined]> = [
      [BROWSER, 'br'],
      [{ 'accept-encoding': 'gzip' }, 'gzip'],
      [{}, undefined],
      [{ 'accept-encoding': 'identity' }, undefined],
      [BROWSER, 'br'],
      [{}, undefined],
    ];
    for (const [headers, coding] of cases) {
      const answer = await rawGet(base() + path, headers);
      expect(answer.status).toBe(200);
      expect(answer.headers['x-cache']).toBe('HIT');
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(answer.headers['content-length']).toBe(String(answer.body.length));
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = htmlOf(answer);
      expect(bodyNonces(html)).toEqual([]);
      expect(answer.headers['content-security-policy']).not.toContain('nonce-');
      policies.add(String(answer.headers['content-security-policy']));
      texts.add(html);
      const earlier = bodies.get(String(coding));
      if (earlier) expect(answer.body.equals(earlier)).toBe(true);
      bodies.set(String(coding), answer.body);
    }
    // Every form, L1 and Redis: one page, one CSP.
    expect(texts.size).toBe(1);
    expect(policies.size).toBe(1);
  });

  it('keeps every header of a cached page, and the ETag / 304', async () => {
    const plain = await rawGet(withL1.url + path);
    const gzip = await rawGet(withL1.url + path, BROWSER);
    for (const name of ['cache-control', 'surrogate-key', 'x-content-type-options', 'permissions-policy', 'content-security-policy']) {
      expect([name, gzip.headers[name]]).toEqual([name, plain.headers[name]]);
    }
    // Each coding its own strong ETag (RFC 9110 §8.8.3).
    expect(gzip.headers.etag).toBe(String(plain.headers.etag).replace(/"$/, '-br"'));
    expect(gzip.headers['server-timing']).toBe('cache;desc="HIT"');
    expect(gzip.headers['x-request-id']).toBeDefined();
    const revalidated = await rawGet(withL1.url + path, { ...BROWSER, 'if-none-match': String(gzip.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers['content-security-policy']).toBe(gzip.headers['content-security-policy']);
  });

  it('a client taking only br gets the stored brotli form', async () => {
    const answer = await rawGet(withL1.url + path, { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(htmlOf(answer)).toBe(htmlOf(await rawGet(withL1.url + path)));
  });

  it('answers HEAD with the headers and no body', async () => {
    const answer = await rawGet(withL1.url + path, BROWSER, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(1000);
    expect(answer.body.length).toBe(0);
  });

  it('stores the page in Redis as bytes, not as text', async () => {
    const key = pageKeyOf(withL1, 0, path);
    const raw = await withRedis(testRedisUrl(), (client) => client.getBuffer(key));
    const entry = raw ? decodeEntry(raw) : null;
    expect(Buffer.isBuffer(entry?.value)).toBe(true);
    // No JSON escaping or base64: the page's Chinese text is in the value as UTF-8.
    const html = htmlOf(await rawGet(withL1.url + path));
    const title = /<title>([^<]+)<\/title>/.exec(html)![1]!;
    expect((entry!.value as Buffer).includes(Buffer.from(title, 'utf8'))).toBe(true);
  });

  it.each([
    ['garbage bytes', () => Buffer.from([0x00, 0x43, 0x45, 0x31, 0xff, 0xff, 0xff, 0xff, 1, 2, 3])],
    ['a page entry of the old JSON form', () => null],
    ['a truncated page', () => undefined],
  ])('%s under a page key: a miss, rendered and stored again, never a 500', async (_name, make) => {
    const key = pageKeyOf(redisOnly, 0, '/');
    await rawGet(redisOnly.url + '/');
    await withRedis(testRedisUrl(), async (client) => {
      const raw = await client.getBuffer(key);
      const entry = raw ? decodeEntry(raw) : null;
      if (!entry || !Buffer.isBuffer(entry.value)) throw new Error('the home page was not stored');
      const made = make();
      const value =
        made === null
          ? encodeEntry({ ...entry, value: JSON.stringify({ html: '<p>old</p>', nonce: 'b2xkLW5vbmNlLTAwMDAwMDA=', etag: 'W/"old"' }) })
          : made === undefined
            ? encodeEntry({ ...entry, value: entry.value.subarray(0, entry.value.length - 100) })
            : made;
      await client.set(key, value, 'KEEPTTL');
    });
    const answer = await rawGet(redisOnly.url + '/', BROWSER);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-cache']).toBe('MISS');
    expect(htmlOf(answer)).toContain('home-grid');
    const again = await eventuallyHit(redisOnly.url + '/');
    expect(again.headers['x-cache']).toBe('HIT');
    expect(htmlOf(again)).toContain('home-grid');
  });

  it.each([
    ['br', BROWSER],
    ['identity', {}],
  ])('from Redis (L1 off), a stale page is answered STALE in %s, the same page as a hit', async (_encoding, headers) => {
    const fresh = htmlOf(await rawGet(redisOnly.url + path, headers));
    const key = pageKeyOf(withL1, 0, path);
    const stored = await withRedis(testRedisUrl(), (client) => client.getBuffer(key));
    await ageEntries(testRedisUrl(), withL1.cachePrefix, decodeEntry(stored!)!.ttl + 1);
    const answer = await rawGet(redisOnly.url + path, headers);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-cache']).toBe('STALE');
    expect(answer.headers['content-encoding']).toBe('accept-encoding' in headers ? 'br' : undefined);
    expect(htmlOf(answer)).toBe(fresh);
    // The background refresh stores the page again: fresh for the next case.
    await eventually(
      () => rawGet(redisOnly.url + path, headers),
      (again) => again.headers['x-cache'] === 'HIT',
    );
  });
});

/** The store after a MISS is issued before the response ends, but lands in Redis a moment later. */
async function eventuallyHit(url: string): Promise<RawAnswer> {
  return eventually(
    () => rawGet(url, BROWSER),
    (answer) => answer.headers['x-cache'] === 'HIT',
  );
}

describe('PageCache.store', () => {
  const nonceA = 'YWFhYWFhYWFhYWFhYWFhYQ==';
  const nonceB = 'YmJiYmJiYmJiYmJiYmJiYg==';
  const page = (nonce: string, text: string) => `<html><script nonce="${nonce}">1</script><body>${text}</body></html>`;

  it('compresses identical renders once and gives them one ETag; other content gets another', async () => {
    const pageCache = new PageCache(new Cache(new MemoryStore(1024 * 1024)), { prefix: 'pc', buildId: 'b' });
    const policy = { ttl: 60, grace: 60, staleIfError: 0 };
    const first = await pageCache.store('pc:b:page:0:/a', policy, page(nonceA, '青年'), nonceA, { tags: [] });
    const again = await pageCache.store('pc:b:page:0:/a', policy, page(nonceB, '青年'), nonceB, { tags: [] });
    const other = await pageCache.store('pc:b:page:0:/a', policy, page(nonceA, '新闻'), nonceA, { tags: [] });
    expect(again).toBe(first);
    expect(again?.etag).toBe(first?.etag);
    expect(other?.etag).not.toBe(first?.etag);
    // The nonce is gone from the stored page, its script allowed by its hash.
    expect(first?.identity.toString('utf8')).toBe('<html><script>1</script><body>青年</body></html>');
    expect(first?.scripts).toBe(`'sha256-${createHash('sha256').update('1').digest('base64')}'`);
    const held = await pageCache.lookup('pc:b:page:0:/a');
    expect(held?.page.etag).toBe(other?.etag);
  });
});
