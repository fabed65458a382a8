/**
 * A purge never waits for Redis, and no peer undoes it. Two portals on a Redis of the test's own, behind a real
 * varnishd running the shipped VCL, under load: with Redis killed (or frozen with SIGSTOP) a takedown sent to one
 * portal's hook is sent by it straight to the other portal (cache/peer-purge.ts, the instance it last saw
 * announced), then to the edge; the answer is 202 naming only Redis, and the takedown is gone at once from both
 * portals and from the edge, which can no longer refetch the old page from the other portal. Then the held purge
 * is replayed (Redis, the purge log, every instance, the edge again): still gone everywhere.
 */
import { historyKey, purgeRecord, type PurgeRecord } from '../../../server/cache/purge-record';
import { MAIN_SITE } from '../../../shared/sites';
import { rawRequest } from '../../support/http';
import { printFigures, startLoad, warmUntilHit } from '../../support/load';
import type { TestPortal } from '../../support/portal';
import { callHook } from '../../support/publish-hook';
import { OwnRedis } from '../../support/redis-server';
import { describeWithRedisServers, describeWithVarnish } from '../../support/requirements';
import { homeListEntry } from '../../support/upstream-data';
import { portalsBehindVarnish } from '../../support/varnish';
import { eventually, withRedis } from './redis-helpers';
import { untilEvery } from '../../support/readiness';

const SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';
const TOKEN = 'edge-purge-token-of-the-portals';

/** The article's headline as the page's title says it (its description may quote the old one). */
function headlineOf(body: string): string {
  return /<title>([^<]*?) - /.exec(body)?.[1] ?? '';
}

/** The history record of purge `id` once it is in Redis (written by the replay). */
async function replayed(redisUrl: string, prefix: string, id: string): Promise<PurgeRecord | undefined> {
  const records = await withRedis(redisUrl, (client) => client.lrange(historyKey(prefix), 0, 99));
  return records.map((text) => purgeRecord.parse(JSON.parse(text))).find((record) => record.id === id);
}

describeWithVarnish()('a purge while Redis is away', () => {
  describeWithRedisServers()('two portals behind a real varnishd, on a Redis of their own', () => {
    let redis: OwnRedis;
    beforeAll(async () => {
      redis = await OwnRedis.start();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    describe('the portals', () => {
      const suite = portalsBehindVarnish({
        purgeToken: TOKEN,
        redisUrl: () => redis.url,
        env: (edge) => ({ PURGE_SECRET: SECRET, EDGE_PURGE_URLS: edge.url, EDGE_PURGE_TOKEN: TOKEN, REDIS_COMMAND_TIMEOUT_MS: '300' }),
        announceEveryMs: 500,
      });
      const viaEdge = (path: string) => rawRequest(suite.varnish.url, 'GET', path, { host: MAIN_SITE.domain });
      const get = (t: TestPortal, path: string) => rawRequest(t.url, 'GET', path, { host: MAIN_SITE.domain });

      /** Both portals hold `path` in L1 (a HIT each) and the edge holds it too. */
      async function held(path: string): Promise<void> {
        await warmUntilHit([suite.a.url + path, suite.b.url + path]);
        const atEdge = await eventually(
          () => viaEdge(path),
          (res) => res.headers['x-edge-cache'] === 'HIT',
          10_000,
        );
        expect(atEdge.headers['x-edge-cache']).toBe('HIT');
      }

      it.each([
        ['killed', 'SIGKILL'],
        ['frozen (SIGSTOP)', 'SIGSTOP'],
      ] as Array<[string, 'SIGKILL' | 'SIGSTOP']>)(
        'Redis %s: a takedown is gone at once from the hook’s portal and the edge, and from both portals and the edge once Redis is back',
        async (_how, signal) => {
          const entry = await homeListEntry(suite.a.upstream.url, signal === 'SIGKILL' ? 0 : 1);
          const path = `/detail/${entry.catid}/${entry.id}`;
          await held(path);
          const load = startLoad(
            [suite.a.url, suite.b.url].flatMap((base) => [`${base}${path}`, `${base}/`, `${base}/about`]),
            4,
          );
          try {
            if (signal === 'SIGKILL') await redis.stop('SIGKILL');
            else process.kill(redis.pid!, 'SIGSTOP');
            await untilEvery([suite.a, suite.b], (checks) => checks.redis === 'down', 'cut off from Redis');

            const corrected = `此文已撤下（${signal}）`;
            expect(suite.a.upstream.api.control.overrideArticle(entry.id, { title: corrected, list_title: corrected })).toBe(true);
            const answer = await callHook(suite.a.url, SECRET, { tags: [`article:${entry.id}`], soft: false, event: `takedown-${signal}` });
            expect(answer.status).toBe(202);
            expect(answer.body).toMatchObject({ complete: false, unreached: ['redis'], soft: false });
            expect(answer.body.instances.missing).toEqual([]);
            expect(answer.body.instances.acknowledged.map((ack: { id: string }) => ack.id)).toEqual([suite.a.portal.instance.id, suite.b.portal.instance.id]);
            // How many objects it purged is not asked: the previous case's follow-up purges (EDGE_FOLLOW_UPS_MS) may
            // have taken this page already, since it shows that case's article among its related ones.
            expect(answer.body.edges).toEqual([{ edge: suite.varnish.url, ok: true, purged: expect.any(Number), ms: expect.any(Number) }]);
            expect(answer.body.instances.acknowledged[0].entries).toBeGreaterThanOrEqual(1);

            // At once: both portals render the page anew (or the load has had it rendered already), and the edge
            // holds no copy (its next answer is a fetch, from either portal: the new text).
            const fromA = await get(suite.a, path);
            expect([fromA.status, headlineOf(fromA.body)]).toEqual([200, corrected]);
            const fromB = await get(suite.b, path);
            expect([fromB.status, headlineOf(fromB.body)]).toEqual([200, corrected]);
            const edgeNow = await viaEdge(path);
            expect([edgeNow.status, edgeNow.headers['x-edge-cache'], headlineOf(edgeNow.body)]).toEqual([200, 'MISS', corrected]);
            for (let ask = 0; ask < 4; ask += 1) expect(headlineOf((await viaEdge(path)).body)).toBe(corrected);

            if (signal === 'SIGKILL') await redis.startProcess();
            else process.kill(redis.pid!, 'SIGCONT');
            const record = await eventually(
              () => replayed(redis.url, suite.a.cachePrefix, answer.body.id as string),
              (found) => found !== undefined,
              20_000,
            );
            expect(record).toMatchObject({ id: answer.body.id, replayedAt: expect.any(String), edges: [{ ok: true }] });
            await untilEvery([suite.a, suite.b], (checks) => checks.redis === 'up' && checks.l1 === 'coherent', 'coherent again');

            // Gone everywhere: both portals and the edge (asked twice, so each portal may be the one it fetches from).
            for (const [where, res] of [
              ['a', await get(suite.a, path)],
              ['b', await get(suite.b, path)],
              // The edge's probes mark the portals healthy again some seconds after the outage (a 503 until then).
              [
                'edge',
                await eventually(
                  () => viaEdge(path),
                  (res) => res.status === 200,
                  20_000,
                ),
              ],
              ['edge', await viaEdge(path)],
            ] as const) {
              expect([where, res.status, headlineOf(res.body)]).toEqual([where, 200, corrected]);
            }
          } finally {
            load.stop();
            if (signal === 'SIGSTOP' && redis.pid) process.kill(redis.pid, 'SIGCONT');
          }
          const figures = await load.done;
          printFigures(`load through the outage (${signal})`, figures);
          expect(figures.errors).toBe(0);
          expect(figures.byStatus['200']).toBe(figures.total);
        },
      );
    });
  });
});
