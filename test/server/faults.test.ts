/**
 * Real faults under bounded load: Redis killed and restarted, Redis answering slowly, the upstream failing in
 * each way it can. The portal must answer every request (stale or uncached), never with a 5xx for a page it
 * has served before. Figures are printed so a run shows what happened.
 */
import Redis from 'ioredis';
import { HOME_CATID } from '../../shared/constants';
import { OwnRedis } from '../support/redis-server';
import { printFigures, runLoad } from '../support/load';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithRedis } from '../support/requirements';
import { firstHomeArticle } from '../support/upstream-data';
import { ageEntries } from './cache/redis-helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function pathsOf(t: TestPortal): Promise<string[]> {
  const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
  return ['/', `/detail/${raw.catid}/${raw.id}`, `/V1/${raw.catid}`, '/about', '/specialColumn'];
}

describeWithRedis()('faults under load', () => {
  let redis: OwnRedis;
  let t: TestPortal;
  let urls: string[];

  beforeAll(async () => {
    redis = await OwnRedis.start();
    // Redis fails fast; the upstream gets time enough for a busy machine, so a slow answer is not an outage.
    t = await startTestPortal({ redisUrl: redis.url, env: { UPSTREAM_TIMEOUT_MS: '2000', REDIS_COMMAND_TIMEOUT_MS: '300' } });
    urls = (await pathsOf(t)).map((path) => t.url + path);
    await runLoad(urls, 500, 2); // warm the caches
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });
  afterEach(() => t.upstream.api.control.reset());

  it('keeps answering while Redis is killed and restarted', async () => {
    const load = runLoad(urls, 3000);
    await sleep(700);
    await redis.stop();
    await sleep(1000);
    await redis.startProcess();
    const figures = await load;
    printFigures('redis killed and restarted', figures);
    expect(figures.errors).toBe(0);
    expect(figures.byStatus['200']).toBe(figures.total);
    // Pages held in L1 keep being HITs through the outage (test/server/cache/redis-outage.test.ts covers it).
    expect(figures.byCache.HIT ?? 0).toBeGreaterThan(0);
  });

  it('keeps answering while Redis sleeps (DEBUG SLEEP) longer than its command timeout', async () => {
    const admin = new Redis(redis.url);
    const load = runLoad(urls, 2500);
    try {
      await sleep(500);
      await admin.call('DEBUG', 'SLEEP', '1.2');
      const figures = await load;
      printFigures('redis slow', figures);
      expect(figures.errors).toBe(0);
      expect(figures.byStatus['200']).toBe(figures.total);
    } finally {
      await load;
      admin.disconnect();
    }
  });

  it.each(['http500', 'hang', 'badjson'] as const)('serves what it holds, past grace, when the upstream answers %s', async (mode) => {
    await runLoad(urls, 300, 2);
    // Every page and call is now past ttl + grace: only stale-if-error can answer without the upstream.
    expect(await ageEntries(redis.url, t.cachePrefix, 'past-grace')).toBeGreaterThan(urls.length);
    await sleep(200);
    t.upstream.api.control.setFailures([{ path: '/', mode }]);
    const figures = await runLoad(urls, 1500);
    printFigures(`upstream ${mode}`, figures);
    expect(figures.errors).toBe(0);
    expect(figures.byStatus['200']).toBe(figures.total);
    expect(figures.byCache.STALE ?? 0).toBeGreaterThan(0);
  });
});
