/** The page and data caches on a real Redis: hits, keys, coalescing, and surviving a Redis outage. */
import Redis from 'ioredis';
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { REGIONAL_SITES } from '../../../shared/sites';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { OwnRedis } from '../../support/redis-server';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { signIn, TEST_APP_ID } from '../../support/sign-in';
import { firstHomeArticle } from '../../support/upstream-data';

async function keysOf(redisUrl: string, prefix: string): Promise<string[]> {
  const client = new Redis(redisUrl);
  try {
    return await client.keys(`${prefix}:*`);
  } finally {
    client.disconnect();
  }
}

async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

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
    expect(etag).toMatch(/^W\/"/);
    const revalidated = await request(t.url).get(path).set('If-None-Match', etag);
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['content-security-policy']).toBeUndefined();
  });

  it('keys pages by site id, never by the Host header', async () => {
    const site = REGIONAL_SITES[4]!;
    await request(t.url).get('/').set('Host', site.domain);
    await request(t.url).get('/').set('Host', `${site.domain.toUpperCase()}:443`);
    const keys = await keysOf(testRedisUrl(), t.cachePrefix);
    const pageKeys = keys.filter((key) => key.includes(':page:'));
    expect(pageKeys).toContain(`${t.cachePrefix}:${t.portal.assets.buildId}:page:${site.id}:/`);
    for (const key of keys) expect(key.toLowerCase()).not.toContain(site.domain);
    const poisoned = await request(t.url).get('/').set('Host', 'evil.example');
    expect(poisoned.text).not.toContain('evil.example');
  });

  it('does not cache pages for a signed-in reader', async () => {
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
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => request(cold.url).get(`/detail/${raw.catid}/${raw.id}`)),
      );
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
    expect(during.headers['x-cache']).toBe('MISS');
    expect(during.text).toContain('home-grid');
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
