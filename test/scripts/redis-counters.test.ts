/**
 * The capacity rows' measuring tools (scripts/bench/redis-counters.ts) on a redis-server of the test's own: the
 * round-trip proxy counts a pipeline as one trip and sequential commands as one each, and the counters count the
 * commands and bytes the work made, leaving out their own INFO calls.
 */
import { createRedisClient, type RedisClient } from '../../server/redis/client';
import { parseRedisTarget } from '../../server/platform/redis-target';
import { countersOf, deltaOf, memoryOfKeys, startRoundTripProxy, type RoundTripProxy } from '../../scripts/bench/redis-counters';
import { OwnRedis } from '../support/redis-server';

describe('the capacity rows measuring tools', () => {
  let redis: OwnRedis;
  let proxy: RoundTripProxy;
  let client: RedisClient;
  let admin: RedisClient;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    proxy = await startRoundTripProxy(redis.url);
    client = createRedisClient(parseRedisTarget(proxy.url), { role: 'cli' });
    admin = createRedisClient(parseRedisTarget(redis.url), { role: 'cli' });
    await Promise.all([client.connect(), admin.connect()]);
  });

  afterAll(async () => {
    client.disconnect();
    admin.disconnect();
    await proxy.close();
    await redis.stop();
  });

  it('counts a pipeline as one round trip and sequential commands as one each', async () => {
    proxy.reset();
    await client.pipeline().set('a', '1').set('b', '2').set('c', '3').exec();
    expect(proxy.trips()).toBe(1);
    proxy.reset();
    for (const key of ['a', 'b', 'c']) await client.get(key);
    expect(proxy.trips()).toBe(3);
  });

  it('counts the commands and bytes of the work, not its own INFO calls', async () => {
    const before = await countersOf(admin);
    const value = 'x'.repeat(10_000);
    await client.pipeline().set('big', value).get('big').get('big').exec();
    const delta = deltaOf(before, await countersOf(admin));
    expect(Object.fromEntries(delta.calls)).toEqual({ set: 1, get: 2 });
    expect(delta.commands).toBe(3);
    expect(delta.netInput).toBeGreaterThanOrEqual(value.length);
    expect(delta.netOutput).toBeGreaterThanOrEqual(2 * value.length);
  });

  it('reads the memory of every member of a set', async () => {
    await admin.sadd('small', 'm1');
    const small = await memoryOfKeys(admin, ['small']);
    await admin.sadd('large', ...Array.from({ length: 1000 }, (_, index) => `member-${index}`));
    const large = await memoryOfKeys(admin, ['large']);
    expect(large).toBeGreaterThan(small + 1000 * 8);
    expect(await memoryOfKeys(admin, ['small', 'large'])).toBe(small + large);
  });
});
