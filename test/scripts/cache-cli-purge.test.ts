/**
 * `portal-cache purge` reaches every instance's memory by selector, also for a page Redis no longer holds (what
 * eviction leaves), says which instances acknowledged, and `portal-cache purges` lists it beside the hook's.
 */
import Redis from 'ioredis';
import request from 'supertest';
import { buildCacheCli, type CacheCli } from '../support/cache-cli';
import { sampleOf, scrape } from '../support/metrics';
import { pageKeyOf } from '../support/portal';
import { callHook } from '../support/publish-hook';
import { redisPortalSuite } from '../support/redis-portal';
import { describeWithRedis, testRedisUrl } from '../support/requirements';
import { eventually } from '../server/cache/redis-helpers';

const SECRET = 'cli-purge-suite-secret-cli-purge-suite-secret';

interface Purged {
  deleted: number;
  instances: { acknowledged: Array<{ id: string; entries: number }>; missing: string[] };
}

interface History {
  purges: Array<{ source: string; who: string; what: string; soft: boolean; entries: number; instances: { acknowledged: unknown[] } }>;
}

describeWithRedis()('portal-cache purge and purges', () => {
  const suite = redisPortalSuite({ instances: 2, env: { PURGE_SECRET: SECRET }, announceEveryMs: 500 });
  let cli: CacheCli;
  beforeAll(async () => {
    cli = await buildCacheCli({ REDIS_URL: testRedisUrl(), CACHE_PREFIX: suite.portal.cachePrefix });
  });
  afterAll(() => cli?.remove());

  async function heldByBoth(path: string): Promise<void> {
    for (const t of [suite.portal, suite.peer]) {
      const held = await eventually(
        () => request(t.url).get(path),
        (res) => res.headers['x-cache'] === 'HIT',
        10_000,
      );
      expect(held.headers['x-cache']).toBe('HIT');
    }
  }

  it('finds and drops both instances’ copies of a page Redis has lost (inspect and purge exit 0, not "nothing")', async () => {
    const path = '/about';
    await heldByBoth(path);
    const client = new Redis(testRedisUrl());
    try {
      expect(await client.del(pageKeyOf(suite.portal, 0, path))).toBe(1);
    } finally {
      client.disconnect();
    }
    // inspect says where the page still is, instead of "nothing cached".
    const inspected = await cli.json<{ redis: boolean; memoryOnly: Array<{ key: string; l1: Array<{ copy: string }> }> }>('inspect', path);
    expect(inspected.redis).toBe(false);
    expect(inspected.memoryOnly.map((held) => [held.key, held.l1.map((copy) => copy.copy)])).toEqual([
      [pageKeyOf(suite.portal, 0, path), ['present', 'present']],
    ]);
    const purged = await cli.json<Purged>('purge', '--url', `https://www.qnnews.cn${path}`);
    expect(purged.deleted).toBe(0);
    expect(purged.instances.missing).toEqual([]);
    expect(purged.instances.acknowledged.map((ack) => ack.entries)).toEqual([1, 1]);
    for (const t of [suite.portal, suite.peer]) {
      const l1 = await request(t.url)
        .get('/_internal/l1')
        .query({ key: pageKeyOf(suite.portal, 0, path) });
      expect(l1.body.entries[0].present).toBe(false);
    }
    const human = await cli.run('purge', '--url', `https://www.qnnews.cn${path}`);
    // Nothing anywhere now: the operator is told so, by purge and by inspect.
    expect(human.code).toBe(4);
    expect(human.stderr).toMatch(/nothing to purge/);
    expect((await cli.run('inspect', path)).code).toBe(4);
  });

  it('lists the purges of the hook and of operators, newest first, in JSON and as a table', async () => {
    await heldByBoth('/');
    expect((await cli.run('purge', '--tag', 'site:0', '--soft')).code).toBe(0);
    const answer = await callHook(suite.portal.url, SECRET, { tags: ['grey'], soft: false });
    expect(answer.status).toBe(200);
    const history = await cli.json<History>('purges', '--limit', '2');
    expect(history.purges.map((purge) => [purge.source, purge.what, purge.soft])).toEqual([
      ['hook', 'grey', false],
      ['cli', 'purge --tag site:0', true],
    ]);
    expect(history.purges[0]!.who).toMatch(/^cms \(/);
    expect(history.purges[1]!.entries).toBeGreaterThan(0);
    expect(history.purges.every((purge) => purge.instances.acknowledged.length === 2)).toBe(true);
    const table = await cli.run('purges', '--limit', '2');
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^when\s+who\s+mode\s+what\s+entries\s+instances\s+edges$/);
    expect(lines[1]).toMatch(/cms \(.*hard\s+grey/);
    expect(lines[2]).toMatch(/soft\s+purge --tag site:0/);
    expect((await cli.run('purges', '--limit', '0')).code).toBe(2);
    // Each operator purge reaches both instances and is counted by one of them (the one that claims it), complete.
    const operatorPurges = (await cli.json<History>('purges', '--limit', '100')).purges.filter((purge) => purge.source === 'cli').length;
    const counted = async () => {
      let total = 0;
      for (const t of [suite.portal, suite.peer]) total += sampleOf(await scrape(t.url), 'portal_purges_total', { source: 'cli', outcome: 'complete' }) ?? 0;
      return total;
    };
    expect(operatorPurges).toBeGreaterThan(0);
    expect(await eventually(counted, (total) => total >= operatorPurges)).toBe(operatorPurges);
  });
});
