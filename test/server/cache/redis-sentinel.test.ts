/**
 * A portal on Redis through Sentinel, on a real set the suite starts itself (master, replica, three
 * Sentinels): pages are cached on the master Sentinel names; when the master is killed, the portal keeps
 * answering 200 (uncached while there is no master), reports Redis down, follows the failover to the promoted
 * replica and serves HITs from it again. The in-process tier is off, so every HIT is an answer from Redis.
 */
import Redis from 'ioredis';
import request from 'supertest';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { OwnSentinelSet, info } from '../../support/redis-sentinel';
import { waitUntil } from '../../support/redis-server';
import { describeWithRedisServers } from '../../support/requirements';
import { eventually } from './redis-helpers';

async function pageKeysOn(port: number, prefix: string, path: string): Promise<string[]> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.keys(`${prefix}:*:page:0:${path}`)).filter((key) => !key.includes(':lock:'));
  } finally {
    client.disconnect();
  }
}

describeWithRedisServers()('a portal on Redis through Sentinel', () => {
  let set: OwnSentinelSet;
  let t: TestPortal;

  beforeAll(async () => {
    set = await OwnSentinelSet.start();
    t = await startTestPortal({ redisUrl: set.url, env: { L1_CACHE_MAX_MB: '0' } });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await set?.stop();
  });

  it('caches pages on the master Sentinel names', async () => {
    expect(t.logs.find((line) => line.msg === 'cache on redis')).toMatchObject({ mode: 'sentinel' });
    expect(await set.masterPort()).toBe(set.master.port);
    expect((await request(t.url).get('/home')).headers['x-cache']).toBe('MISS');
    expect((await request(t.url).get('/home')).headers['x-cache']).toBe('HIT');
    expect(
      await eventually(
        () => pageKeysOn(set.master.port, t.cachePrefix, '/home'),
        (keys) => keys.length === 1,
        5000,
      ),
    ).toHaveLength(1);
    expect((await request(t.url).get('/readyz')).body).toMatchObject({ status: 'ready', checks: { redis: 'up' } });
  });

  it('keeps serving through a failover and returns to HIT on the promoted replica', async () => {
    const results: Array<{ status: number; cache: string }> = [];
    let reading = true;
    // Readers keep coming throughout, one after another, alternating a cached page and another.
    const readers = (async () => {
      for (let index = 0; reading; index += 1) {
        const res = await request(t.url).get(index % 2 === 0 ? '/home' : '/siteMap');
        results.push({ status: res.status, cache: String(res.headers['x-cache']) });
      }
    })();
    try {
      await set.master.stop('SIGKILL');
      const degraded = await eventually(
        () => request(t.url).get('/readyz'),
        (res) => res.body.checks?.redis === 'down',
        10_000,
      );
      expect(degraded.body).toMatchObject({ status: 'degraded', checks: { redis: 'down' } });

      await waitUntil(async () => (await set.masterPort()) === set.replica.port, 30_000, 'Sentinel to promote the replica');
      const up = await eventually(
        () => request(t.url).get('/readyz'),
        (res) => res.body.checks?.redis === 'up',
        30_000,
      );
      expect(up.body).toMatchObject({ status: 'ready', checks: { redis: 'up' } });
      const back = await eventually(
        () => request(t.url).get('/home'),
        (res) => res.headers['x-cache'] === 'HIT',
        30_000,
      );
      expect(back.headers['x-cache']).toBe('HIT');
    } finally {
      reading = false;
      await readers;
    }
    expect(results.length).toBeGreaterThan(2);
    expect(results.filter((result) => result.status !== 200)).toEqual([]);
    expect(await info(set.replica.port, 'replication')).toContain('role:master');
    expect(await pageKeysOn(set.replica.port, t.cachePrefix, '/home')).toHaveLength(1);
    // Pages first rendered after the failover are stored on the new master.
    expect((await request(t.url).get('/license')).headers['x-cache']).toBe('MISS');
    expect(
      await eventually(
        () => pageKeysOn(set.replica.port, t.cachePrefix, '/license'),
        (keys) => keys.length === 1,
        5000,
      ),
    ).toHaveLength(1);
    expect((await request(t.url).get('/license')).headers['x-cache']).toBe('HIT');
  }, 90_000);
});
