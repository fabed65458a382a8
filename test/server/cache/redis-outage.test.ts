/**
 * Capacity through a Redis outage: a portal whose Redis is killed (by the PID this test started) keeps answering
 * the pages its in-process tier holds as HITs, with no failed request, for at most L1_OUTAGE_SERVE_S; once Redis
 * is back, nothing held across the gap is served (a purge may have been missed). The rate with Redis down
 * against the rate with it up is measured by `npm run bench`, not here.
 */
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { runLoad, printFigures } from '../../support/load';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { OwnRedis } from '../../support/redis-server';
import { describeWithRedisServers } from '../../support/requirements';
import { firstHomeArticle } from '../../support/upstream-data';
import { eventually } from './redis-helpers';

async function pagePaths(t: TestPortal): Promise<string[]> {
  const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
  // Several page kinds and a query variant, so the class (any cached page) is covered, not one route.
  return ['/', `/detail/${raw.catid}/${raw.id}`, `/V1/${raw.catid}`, '/about', '/specialColumn', '/?utm_source=x'];
}

/** Asks each page until it is a HIT (stored in Redis and in L1). */
async function warm(t: TestPortal, paths: readonly string[]): Promise<void> {
  for (const path of paths)
    await eventually(
      () => request(t.url).get(path),
      (res) => res.headers['x-cache'] === 'HIT',
      10_000,
    );
}

async function redisCheck(t: TestPortal): Promise<string> {
  const res = await request(t.url).get('/readyz');
  return String((res.body as { checks?: { redis?: string } }).checks?.redis);
}

describeWithRedisServers()('a Redis outage', () => {
  let redis: OwnRedis;
  beforeEach(async () => {
    redis = await OwnRedis.start();
  });
  afterEach(async () => {
    await redis.stop();
  });

  it('keeps serving cached pages as HITs from L1 with zero failures, and serves none of them once Redis is back', async () => {
    const t = await startTestPortal({ redisUrl: redis.url, env: { REDIS_COMMAND_TIMEOUT_MS: '300' } });
    try {
      const paths = await pagePaths(t);
      await warm(t, paths);
      const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);

      await redis.stop('SIGKILL');
      await eventually(
        () => redisCheck(t),
        (state) => state === 'down',
        10_000,
      );
      const figures = await runLoad(
        paths.map((path) => t.url + path),
        1500,
        4,
      );
      printFigures('redis down, L1 serving', figures);
      expect(figures.errors).toBe(0);
      expect(figures.total).toBeGreaterThan(paths.length);
      expect(figures.byStatus['200']).toBe(figures.total);
      expect(figures.byCache.HIT).toBe(figures.total);

      // While Redis was away the article changed (as if a purge had been made and missed): the restarted
      // Redis holds nothing, and the L1 copy must not outlive the reconnect.
      t.upstream.api.control.overrideArticle(raw.id, { title: '重连后不得再出旧页' });
      await redis.startProcess();
      await eventually(
        () => redisCheck(t),
        (state) => state === 'up',
        10_000,
      );
      const detail = await eventually(
        () => request(t.url).get(`/detail/${raw.catid}/${raw.id}`),
        (res) => res.text.includes('重连后不得再出旧页'),
        10_000,
      );
      expect(detail.status).toBe(200);
      // L1 was emptied on resubscribing: the home page is rendered again, not answered from before the outage.
      await eventually(
        () => request(t.url).get('/about'),
        (res) => res.headers['x-cache'] === 'MISS',
        10_000,
      );
    } finally {
      await t.close();
    }
  });

  it.each([
    ['0 (L1 bypassed at once)', '0'],
    ['1 s (bounded staleness)', '1'],
  ])('stops answering from L1 once the outage outlasts L1_OUTAGE_SERVE_S=%s, still with every page 200', async (_label, seconds) => {
    const t = await startTestPortal({ redisUrl: redis.url, env: { REDIS_COMMAND_TIMEOUT_MS: '300', L1_OUTAGE_SERVE_S: seconds } });
    try {
      const paths = await pagePaths(t);
      await warm(t, paths);
      await redis.stop('SIGKILL');
      await eventually(
        () => redisCheck(t),
        (state) => state === 'down',
        10_000,
      );
      const past = await eventually(
        () => request(t.url).get('/about'),
        (res) => res.headers['x-cache'] === 'MISS',
        10_000,
      );
      expect(past.status).toBe(200);
      for (const path of paths) {
        const res = await request(t.url).get(path);
        expect(res.status).toBe(200);
        expect(res.headers['x-cache']).toBe('MISS');
      }
    } finally {
      await t.close();
    }
  });
});
