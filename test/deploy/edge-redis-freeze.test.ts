/**
 * A frozen Redis must not take the edge down. The shipped VCL probes /readyz with a 1 s timeout; a readiness that
 * waited on Redis (its probe's own 1 s bound) answered too late, Varnish marked both portals sick, and uncached
 * pages got `503 Backend fetch failed` while both portals were serving. Here a real varnishd runs the shipped VCL
 * over two portals on a Redis of the test's own, which is frozen (SIGSTOP) until the edge has probed each portal
 * several times; every uncached page asked through the edge meanwhile must be a 200.
 */
import { describeWithRedis, describeWithRedisServers, describeWithVarnish } from '../support/requirements';
import { OwnRedis, waitUntil } from '../support/redis-server';
import { articlePaths } from '../support/upstream-data';
import { portalsBehindVarnish } from '../support/varnish';
import { requestsTo } from '../support/portal';

const TOKEN = 'an-edge-purge-token-of-the-test-0123';
/** Probes each portal must answer during the freeze: with the VCL's window 3 / threshold 2, two late ones make it sick. */
const PROBES_FROZEN = 4;

describeWithVarnish()('a frozen Redis behind the shipped VCL', () => {
  describeWithRedis()('two portals', () => {
    describeWithRedisServers()('on a Redis of the test’s own', () => {
      let redis: OwnRedis;
      beforeAll(async () => {
        redis = await OwnRedis.start();
      });
      afterAll(async () => {
        redis?.resume();
        await redis?.stop();
      });
      // The shipped command timeout: a stalled Redis costs a reader one command, then the cache works without it.
      const suite = portalsBehindVarnish({ purgeToken: TOKEN, redisUrl: () => redis.url, env: () => ({ REDIS_COMMAND_TIMEOUT_MS: '1000' }) });

      it('keeps both portals in rotation: every uncached page is a 200 while Redis is frozen', async () => {
        const probes = [requestsTo(suite.a, '/readyz'), requestsTo(suite.b, '/readyz')];
        const paths = await articlePaths(suite.a.upstream.url, 60);
        expect(paths.length).toBeGreaterThanOrEqual(30);
        // The edge is probing both before the freeze.
        await waitUntil(async () => probes.every((count) => count() >= 2), 30_000, 'the edge to probe both portals');

        redis.pause();
        const statuses: number[] = [];
        try {
          const before = probes.map((count) => count());
          const frozenLongEnough = () => probes.every((count, index) => count() - before[index]! >= PROBES_FROZEN);
          for (let index = 0; !frozenLongEnough() || index < paths.length; index += 1) {
            const path = `${paths[index % paths.length]}?frozen=${index}`;
            const res = await fetch(`${suite.varnish.url}${path}`, { headers: { 'Cache-Control': 'no-cache' } });
            await res.arrayBuffer();
            statuses.push(res.status);
            if (index > 2000) throw new Error('the edge stopped probing while Redis was frozen');
          }
          // Asked directly, readiness answers while Redis is still frozen: 200, degraded, the cache's Redis down.
          const ready = await fetch(`${suite.a.url}/readyz`);
          expect([ready.status, ((await ready.json()) as { checks: { redis: string } }).checks.redis]).toEqual([200, 'down']);
        } finally {
          redis.resume();
        }
        const failed = statuses.filter((status) => status !== 200);
        expect({ asked: statuses.length >= paths.length, failed }).toEqual({ asked: true, failed: [] });
      });
    });
  });
});
