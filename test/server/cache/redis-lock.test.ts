/** Cross-instance coalescing on a real Redis: the lock itself, two portal instances, and a dead lock holder. */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { cacheKey } from '../../../server/cache/keys';
import { lockKey, RedisLock } from '../../../server/cache/redis-lock';
import { HOME_CATID } from '../../../shared/constants';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { firstHomeArticle } from '../../support/upstream-data';
import { deleteKeys } from './redis-helpers';

describeWithRedis()('RedisLock', () => {
  let client: Redis;
  const prefix = `t${randomBytes(6).toString('hex')}`;
  beforeAll(() => {
    client = new Redis(testRedisUrl());
  });
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), prefix);
    client.disconnect();
  });

  it('is held by one caller at a time and released only by its holder', async () => {
    const lock = new RedisLock(client, 5000);
    const key = `${prefix}:b:data:_:menu`;
    expect(lockKey(key)).toBe(`${prefix}:lock:b:data:_:menu`);
    const token = await lock.tryAcquire(key);
    expect(token).not.toBeNull();
    expect(await lock.tryAcquire(key)).toBeNull();
    await lock.release(key, 'not-the-holder');
    expect(await lock.isHeld(key)).toBe(true);
    await lock.release(key, token!);
    expect(await lock.isHeld(key)).toBe(false);
    const pttl = await (async () => {
      await lock.tryAcquire(key);
      return client.pttl(lockKey(key));
    })();
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(5000);
  });
});

describeWithRedis()('two instances, one upstream call per key', () => {
  let a: TestPortal;
  let b: TestPortal;
  beforeAll(async () => {
    // The default lock timeout (5 s): a load slower than the lock's life would rightly be done twice. And a
    // generous command timeout: on a loaded test machine 60 concurrent renders can stall the event loop past
    // the production 500 ms, and a Redis read that 'times out' is a miss by design, which is not what this
    // test is about.
    const env = { REDIS_COMMAND_TIMEOUT_MS: '5000' };
    a = await startTestPortal({ redisUrl: testRedisUrl(), env });
    b = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream, cachePrefix: a.cachePrefix, env });
  });
  afterEach(async () => {
    a.upstream.api.control.reset();
    await deleteKeys(testRedisUrl(), a.cachePrefix);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('coalesces 60 concurrent cold requests spread over both instances', async () => {
    const raw = await firstHomeArticle(a.upstream.url, HOME_CATID);
    a.upstream.api.control.reset();
    a.upstream.api.control.setLatency([{ path: '/', ms: 80 }]);
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, index) => request(index % 2 === 0 ? a.url : b.url).get(`/detail/${raw.catid}/${raw.id}`)),
    );
    expect(responses.every((res) => res.status === 200)).toBe(true);
    const { byPath, total } = a.upstream.api.control.stats();
    expect(total).toBeGreaterThan(3);
    for (const [path, count] of Object.entries(byPath)) expect([path, count]).toEqual([path, 1]);
  });

  it('does not let a dead lock holder block a key beyond the lock timeout', async () => {
    const raw = await firstHomeArticle(a.upstream.url, HOME_CATID);
    a.upstream.api.control.reset();
    const client = new Redis(testRedisUrl());
    try {
      // A holder that took the lock for the article's data and died: nobody will release it; it expires in 1 s.
      const dataKey = cacheKey({ prefix: a.cachePrefix, buildId: a.portal.assets.buildId }, 'data', '_', `show:${raw.catid}:${raw.id}`);
      await client.set(lockKey(dataKey), 'dead-holder', 'PX', 1000);
      const res = await request(a.url).get(`/detail/${raw.catid}/${raw.id}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain(raw.title.slice(0, 4));
      expect(await client.exists(lockKey(dataKey))).toBe(0);
      expect(a.upstream.api.control.stats().byPath[`GET /show/${raw.catid}-${raw.id}.html?`]).toBe(1);
    } finally {
      client.disconnect();
    }
  });
});
