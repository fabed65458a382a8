/**
 * SESSION_REDIS_URL: sessions and pending sign-ins live on a Redis of their own (run with noeviction), so the
 * cache Redis can evict, or be emptied, without signing readers out.
 */
import Redis from 'ioredis';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { startTestPortal } from '../../support/portal';
import { OwnRedis } from '../../support/redis-server';
import { describeWithRedis, describeWithRedisServers, testRedisUrl } from '../../support/requirements';
import { mainSitePage, signIn, signInEnv } from '../../support/sign-in';

// Needs the shared test Redis (the cache) and the redis-server binary (the session Redis of its own).
const describeBoth = process.env.PORTAL_TEST_NO_REDIS ? describeWithRedis() : describeWithRedisServers();

describeBoth('sessions on their own Redis (SESSION_REDIS_URL)', () => {
  it('keeps sessions off the cache Redis, and a reader signed in when the cache Redis is emptied', async () => {
    const sessionRedis = await OwnRedis.start({ args: () => ['--maxmemory-policy', 'noeviction'] });
    const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    const t = await startTestPortal({
      upstream,
      redisUrl: testRedisUrl(),
      env: { ...signInEnv(upstream.url), SESSION_REDIS_URL: sessionRedis.url },
    });
    const cacheClient = new Redis(testRedisUrl());
    const sessionClient = new Redis(sessionRedis.url);
    try {
      const session = await signIn(t, '独立会话读者');
      expect(await sessionClient.keys(`${t.cachePrefix}:session:*`)).toHaveLength(1);
      expect(await cacheClient.keys(`${t.cachePrefix}:session:*`)).toHaveLength(0);
      expect(await cacheClient.keys(`${t.cachePrefix}:login:*`)).toHaveLength(0);

      const cached = await cacheClient.keys(`${t.cachePrefix}:*`);
      if (cached.length > 0) await cacheClient.del(...cached);
      const page = await mainSitePage(t, '/home', session);
      expect(page.status).toBe(200);
      expect(page.headers['x-cache']).toBe('PASS');
      expect(page.text).toContain('独立会话读者');
    } finally {
      const left = await cacheClient.keys(`${t.cachePrefix}:*`);
      if (left.length > 0) await cacheClient.del(...left);
      cacheClient.disconnect();
      sessionClient.disconnect();
      await t.close();
      await upstream.close();
      await sessionRedis.stop();
    }
  });
});
