/**
 * Two portal instances on a real 3-master Redis Cluster the suite starts itself: pages cached and shared,
 * entries spread over the masters, purges by tag and by site through the CLI (keys on many slots, no
 * CROSSSLOT) evicting every instance's in-process copy over cluster-wide pub/sub, run-time policy, one
 * upstream call per key, and readiness that notices a master going down.
 */
import calculateSlot from 'cluster-key-slot';
import Redis, { type Cluster } from 'ioredis';
import request from 'supertest';
import { createRedisClient, isCluster } from '../../../server/redis/client';
import { scanAll } from '../../../server/redis/commands';
import { parseRedisTarget } from '../../../server/platform/redis-target';
import { parseEntryKey } from '../../../server/cache/stats';
import { HOME_CATID } from '../../../shared/constants';
import { MAIN_SITE, REGIONAL_SITES, type SiteConfig } from '../../../shared/sites';
import { buildCacheCli, type CacheCli } from '../../support/cache-cli';
import { pageKeyOf, startTestPortal, type TestPortal } from '../../support/portal';
import { OwnRedisCluster } from '../../support/redis-cluster';
import type { OwnRedis } from '../../support/redis-server';
import { describeWithRedisServers } from '../../support/requirements';
import { firstHomeArticle } from '../../support/upstream-data';
import { htmlOf, rawGet } from '../../support/http';
import { eventually } from './redis-helpers';

interface PurgeOutput {
  count: number;
  deleted: number;
  keys: string[];
}

async function clusterClient(url: string): Promise<Cluster> {
  const client = createRedisClient(parseRedisTarget(url), { role: 'cli' });
  client.on('error', () => undefined);
  await client.connect();
  if (!isCluster(client)) throw new Error(`${url} did not make a cluster client`);
  return client;
}

describeWithRedisServers()('two portal instances on a Redis Cluster', () => {
  let cluster: OwnRedisCluster;
  let admin: Cluster;
  let a: TestPortal;
  let b: TestPortal;
  let cli: CacheCli;

  /** Entry keys of the suite's prefix on the whole cluster (lock keys match the same patterns while held). */
  const entryKeys = async (pattern: string) => (await scanAll(admin, `${a.cachePrefix}:${pattern}`)).filter((key) => !key.includes(':lock:'));
  const stored = (pattern: string) =>
    eventually(
      () => entryKeys(pattern),
      (keys) => keys.length > 0,
      5000,
    );
  /** Instances subscribed to the suite's channel on one node (PUBSUB NUMSUB counts a node's own clients). */
  const subscribersOn = async (node: OwnRedis) => {
    const client = new Redis({ host: '127.0.0.1', port: node.port, lazyConnect: true, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const reply = (await client.pubsub('NUMSUB', `${a.cachePrefix}:events`)) as [string, number];
      return Number(reply[1]);
    } finally {
      client.disconnect();
    }
  };
  const subscribers = async (nodes: readonly OwnRedis[]) => (await Promise.all(nodes.map(subscribersOn))).reduce((sum, count) => sum + count, 0);
  const cacheOf = async (portal: TestPortal, path: string) => {
    const res = await request(portal.url).get(path);
    expect(res.status).toBe(200);
    return String(res.headers['x-cache']);
  };

  beforeAll(async () => {
    cluster = await OwnRedisCluster.start(3);
    admin = await clusterClient(cluster.url);
    a = await startTestPortal({ redisUrl: cluster.url });
    b = await startTestPortal({ redisUrl: cluster.url, upstream: a.upstream, cachePrefix: a.cachePrefix });
    cli = await buildCacheCli({ REDIS_URL: cluster.url, CACHE_PREFIX: a.cachePrefix });
    // Both instances hear announcements.
    expect(
      await eventually(
        () => subscribers(cluster.nodes),
        (count) => count === 2,
        10_000,
      ),
    ).toBe(2);
  }, 90_000);

  afterEach(() => a?.upstream.api.control.reset());

  afterAll(async () => {
    cli?.remove();
    await b?.close();
    await a?.close();
    admin?.disconnect();
    await cluster?.stop();
  });

  it('connects as a cluster client and reports the cluster up', async () => {
    expect(a.logs.find((line) => line.msg === 'cache on redis')).toMatchObject({ mode: 'cluster' });
    const ready = await request(a.url).get('/readyz');
    expect(ready.body).toMatchObject({ status: 'ready', checks: { redis: 'up', cache: 'redis' } });
    const metrics = await request(b.url).get('/metrics');
    expect(metrics.text).toMatch(/^portal_redis_up 1$/m);
  });

  it('serves MISS then HIT, HIT on the other instance, with entries spread over the masters', async () => {
    const raw = await firstHomeArticle(a.upstream.url, HOME_CATID);
    expect(await cacheOf(a, '/home')).toBe('MISS');
    expect(await cacheOf(a, '/home')).toBe('HIT');
    await stored('*:page:0:/home');
    expect(await cacheOf(b, '/home')).toBe('HIT');
    await request(a.url).get(`/detail/${raw.catid}/${raw.id}`);

    const keys = await entryKeys('*');
    const masters = admin.nodes('master');
    const perMaster = await Promise.all(masters.map((node) => node.dbsize()));
    // Hash slots spread keys: no hash tag pins a prefix (or a page) to one node.
    expect(new Set(keys.map((key) => calculateSlot(key))).size).toBeGreaterThan(5);
    expect(perMaster.filter((count) => count > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('with L1 off, answers hits read from every master in the one form sent, the page the other instance serves', async () => {
    const raw = await firstHomeArticle(a.upstream.url, HOME_CATID);
    const pageKey = (site: SiteConfig, path: string) => pageKeyOf(a, site.id, path);
    const masterOf = (key: string) => admin.slots[calculateSlot(key)]?.[0];
    const pages: Array<{ site: SiteConfig; path: string }> = [
      { site: MAIN_SITE, path: '/home' },
      { site: MAIN_SITE, path: `/detail/${raw.catid}/${raw.id}` },
    ];
    // Regional homes until the pages sit on two masters at least: the read script runs (and is first loaded) on each.
    for (const site of REGIONAL_SITES) {
      if (new Set(pages.map((page) => masterOf(pageKey(page.site, page.path)))).size > 1) break;
      pages.push({ site, path: '/home' });
    }
    expect(new Set(pages.map((page) => masterOf(pageKey(page.site, page.path)))).size).toBeGreaterThan(1);
    for (const { site, path } of pages) await rawGet(a.url + path, { host: site.domain });
    await eventually(
      () => Promise.all(pages.map((page) => admin.exists(pageKey(page.site, page.path)))),
      (held) => held.every((count) => count === 1),
      5000,
    );
    const redisOnly = await startTestPortal({ redisUrl: cluster.url, upstream: a.upstream, cachePrefix: a.cachePrefix, env: { L1_CACHE_MAX_MB: '0' } });
    try {
      for (const { site, path } of pages) {
        const text = htmlOf(await rawGet(a.url + path, { host: site.domain }));
        for (const [encoding, coding] of [
          ['gzip, deflate, br', 'br'],
          ['gzip', 'gzip'],
          [null, undefined],
        ] as const) {
          const answer = await rawGet(redisOnly.url + path, encoding ? { host: site.domain, 'accept-encoding': encoding } : { host: site.domain });
          expect([site.domain, path, answer.status, answer.headers['x-cache'], answer.headers['content-encoding']]).toEqual([
            site.domain,
            path,
            200,
            'HIT',
            coding,
          ]);
          // The same bytes as the other instance sends: one document for every reader.
          expect(htmlOf(answer)).toBe(text);
        }
      }
    } finally {
      await redisOnly.close();
    }
  });

  it('purges by tag through the CLI on every slot, and both instances drop their copies', async () => {
    const raw = await firstHomeArticle(a.upstream.url, HOME_CATID);
    // Two pages holding the article, each in both instances' memory; each instance is then first to look at
    // one of them after the purge, so its MISS can only mean its own copy was dropped.
    const [first, second] = [`/detail/${raw.catid}/${raw.id}`, `/detailReading/${raw.catid}/${raw.id}`];
    for (const path of [first, second]) {
      await request(a.url).get(path);
      await stored(`*:page:0:${path}`);
      expect(await cacheOf(b, path)).toBe('HIT');
      expect(await cacheOf(a, path)).toBe('HIT');
    }
    const dry = await cli.json<PurgeOutput>('purge', '--tag', `article:${raw.id}`, '--dry-run');
    expect(dry.count).toBeGreaterThanOrEqual(3); // two pages and the article's data
    const purged = await cli.json<PurgeOutput>('purge', '--tag', `article:${raw.id}`);
    expect(purged.deleted).toBe(dry.count);
    expect(new Set(purged.keys.map((key) => calculateSlot(key))).size).toBeGreaterThan(1);
    expect(await entryKeys(`*:page:0:/detail*/${raw.catid}/${raw.id}`)).toEqual([]);

    expect(
      await eventually(
        () => cacheOf(a, first),
        (state) => state === 'MISS',
        5000,
      ),
    ).toBe('MISS');
    expect(
      await eventually(
        () => cacheOf(b, second),
        (state) => state === 'MISS',
        5000,
      ),
    ).toBe('MISS');
  });

  it('purges a site through the CLI, pages and site data, evicted on both instances', async () => {
    const [first, second] = ['/siteMap', '/license'];
    for (const path of [first, second]) {
      await request(a.url).get(path);
      await stored(`*:page:0:${path}`);
      expect(await cacheOf(b, path)).toBe('HIT');
    }
    const purged = await cli.json<PurgeOutput>('purge', '--site', '0');
    expect(purged.deleted).toBe(purged.count);
    expect(purged.keys.some((key) => key.includes(':data:'))).toBe(true);
    expect(new Set(purged.keys.map((key) => calculateSlot(key))).size).toBeGreaterThan(1);
    expect(await entryKeys('*:page:0:*')).toEqual([]);

    expect(
      await eventually(
        () => cacheOf(a, first),
        (state) => state === 'MISS',
        5000,
      ),
    ).toBe('MISS');
    expect(
      await eventually(
        () => cacheOf(b, second),
        (state) => state === 'MISS',
        5000,
      ),
    ).toBe('MISS');
  });

  it('applies a run-time policy change on both instances and to the next entries stored', async () => {
    await cli.json('policy', 'set', '--page', 'detail', '--ttl', '77', '--grace', '5');
    for (const portal of [a, b]) {
      const ttl = await eventually(
        async () => portal.portal.cachePolicy.page('detail').ttl,
        (value) => value === 77,
        8000,
      );
      expect(ttl).toBe(77);
    }
    const raw = await firstHomeArticle(a.upstream.url, HOME_CATID);
    await request(b.url).get(`/detail/${raw.catid}/${raw.id}`);
    await stored(`*:page:0:/detail/${raw.catid}/${raw.id}`);
    const { entries } = await cli.json<{ entries: Array<{ ttl: number; grace: number }> }>('inspect', `/detail/${raw.catid}/${raw.id}`);
    expect(entries[0]).toMatchObject({ ttl: 77, grace: 5 });
    await cli.json('policy', 'reset');
  });

  it('coalesces concurrent cold requests over both instances into one upstream call per key', async () => {
    // Both instances must have heard the purge before the requests start: one that hears it later would count a
    // load begun before it as racing the purge, refuse to store it, and its waiters would load the key again.
    const purge = await cli.run('--json', 'purge', '--all');
    expect([0, 4]).toContain(purge.code); // 4: nothing was left to purge
    const heard = (JSON.parse(purge.stdout) as { instances?: { acknowledged: unknown[]; missing: string[] } }).instances;
    expect([heard?.acknowledged.length, heard?.missing]).toEqual([2, []]);
    a.upstream.api.control.reset();
    a.upstream.api.control.setLatency([{ path: '/', ms: 80 }]);
    const responses = await Promise.all(Array.from({ length: 40 }, (_, index) => request(index % 2 === 0 ? a.url : b.url).get('/home')));
    expect(responses.every((res) => res.status === 200)).toBe(true);
    const { byPath, total } = a.upstream.api.control.stats();
    expect(total).toBeGreaterThan(3);
    for (const [path, count] of Object.entries(byPath)) expect([path, count]).toEqual([path, 1]);
  });

  it('counts entries by kind in `stats --json`, from every master', async () => {
    await request(a.url).get('/home');
    await stored('*:page:0:/home');
    const keys = (await entryKeys('*')).filter((key) => parseEntryKey(key) !== null);
    const stats = await cli.json<{ entries: { entries: number; byKind: Record<string, { entries: number }> } }>('stats');
    expect(stats.entries.entries).toBe(keys.length);
    expect(stats.entries.byKind.page?.entries).toBe(keys.filter((key) => key.includes(':page:')).length);
    expect(stats.entries.byKind.data?.entries).toBeGreaterThan(3);
  });

  it('refuses a bad --redis with exit code 2 and says so when no seed node answers (3)', async () => {
    const bad = await cli.run('--redis', `${cluster.url}/1`, 'stats');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('redis-cluster:// takes no path (a cluster has only database 0)');
    const down = await cli.run('--redis', 'redis-cluster://127.0.0.1:1', 'stats');
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/^portal-cache: cannot reach Redis at redis-cluster:\/\/127\.0\.0\.1:1: /);
  });

  it('reports Redis down while a master is gone, keeps serving, and recovers when it is back', async () => {
    // The master holding a subscription: losing it must move that instance's subscription elsewhere.
    const counts = await Promise.all(cluster.nodes.map(subscribersOn));
    const victim = cluster.nodes[counts.findIndex((count) => count > 0)]!;
    const survivors = cluster.nodes.filter((node) => node !== victim);
    await victim.stop();
    const degraded = await eventually(
      () => request(a.url).get('/readyz'),
      (res) => res.body.checks?.redis === 'down',
      10_000,
    );
    expect(degraded.body).toMatchObject({ status: 'degraded', checks: { redis: 'down' } });
    // Keys on the lost master's slots fail fast as misses; the page still renders.
    for (const path of ['/home', '/siteMap']) expect((await request(b.url).get(path)).status).toBe(200);
    // An instance whose subscription was on the lost node has moved it to another: both listen on the survivors.
    expect(
      await eventually(
        () => subscribers(survivors),
        (count) => count === 2,
        10_000,
      ),
    ).toBe(2);

    await victim.startProcess();
    const recovered = await eventually(
      () => request(a.url).get('/readyz'),
      (res) => res.body.checks?.redis === 'up',
      20_000,
    );
    expect(recovered.body).toMatchObject({ status: 'ready', checks: { redis: 'up' } });
  }, 90_000);
});
