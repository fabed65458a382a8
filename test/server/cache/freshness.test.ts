/**
 * Freshness on a real Redis and the real reference API: pages and data past grace are served while the
 * upstream fails (stale-if-error), and a page with nothing held and the upstream down is a 503 with Retry-After.
 */
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { redisPortalSuite } from '../../support/redis-portal';
import { firstHomeArticle } from '../../support/upstream-data';
import { ageEntries } from './redis-helpers';

describeWithRedis()('freshness past grace', () => {
  const suite = redisPortalSuite();

  it('serves an expired page as STALE while the upstream fails, and re-renders once it answers', async () => {
    const raw = await firstHomeArticle(suite.portal.upstream.url, HOME_CATID);
    const path = `/detail/${raw.catid}/${raw.id}`;
    expect((await request(suite.portal.url).get(path)).headers['x-cache']).toBe('MISS');
    // Redis's own expiry (ttl + grace + stale-if-error) is untouched by ageing storedAt; entries stay held.
    expect(await ageEntries(testRedisUrl(), suite.portal.cachePrefix, 'past-grace')).toBeGreaterThan(3);

    suite.portal.upstream.api.control.setFailures([{ path: '/', mode: 'http500' }]);
    const during = await request(suite.portal.url).get(path);
    expect(during.status).toBe(200);
    expect(during.headers['x-cache']).toBe('STALE');
    expect(during.text).toContain(raw.title.slice(0, 4));

    suite.portal.upstream.api.control.setFailures([]);
    const after = await request(suite.portal.url).get(path);
    expect(after.status).toBe(200);
    expect(after.headers['x-cache']).toBe('MISS');
    expect((await request(suite.portal.url).get(path)).headers['x-cache']).toBe('HIT');
  });

  it('answers 503 with Retry-After when a page has nothing held and the upstream is down', async () => {
    suite.portal.upstream.api.control.setFailures([{ path: '/', mode: 'http500' }]);
    // A regional site's home: its categories were never loaded, so nothing is held for them.
    const home = await request(suite.portal.url).get('/').set('Host', 'never-cached.example');
    const detail = await request(suite.portal.url).get('/detail/2728/999999');
    for (const res of [home, detail]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.text).not.toMatch(/at .+\.ts:\d+/);
    }
    suite.portal.upstream.api.control.setFailures([]);
    expect((await request(suite.portal.url).get('/detail/2728/999999')).status).not.toBe(503);
  });
});
