/**
 * The instance listing reads the index of announced ids, not the keyspace (docs/decisions/0175): however many
 * entries Redis holds, listing takes the same round trips; an announcement that expired or was withdrawn is not
 * listed. On a redis-server of the test's own, through the bench's round-trip proxy.
 */
import { randomUUID } from 'node:crypto';
import { announcedInstances, InstanceAnnouncer, writeAnnouncement, type Announcement } from '../../../server/cache/instances';
import { createRedisClient, type RedisClient } from '../../../server/redis/client';
import { parseRedisTarget } from '../../../server/platform/redis-target';
import { startRoundTripProxy, type RoundTripProxy } from '../../../scripts/bench/redis-counters';
import { OwnRedis, waitUntil } from '../../support/redis-server';

const PREFIX = 'idx';

function record(id: string, port: number): Announcement {
  return { id, host: 'test', pid: 1, url: `http://127.0.0.1:${port}`, build: 'b', startedAt: new Date().toISOString() };
}

describe('the instance listing', () => {
  let redis: OwnRedis;
  let proxy: RoundTripProxy;
  let client: RedisClient;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    proxy = await startRoundTripProxy(redis.url);
    client = createRedisClient(parseRedisTarget(proxy.url), { role: 'cli' });
    await client.connect();
  });

  afterAll(async () => {
    client.disconnect();
    await proxy.close();
    await redis.stop();
  });

  it('takes the same round trips with 20,000 entries held as with none', async () => {
    await writeAnnouncement(client, PREFIX, record('a', 1), 30_000);
    await writeAnnouncement(client, PREFIX, record('b', 2), 30_000);
    proxy.reset();
    expect((await announcedInstances(client, PREFIX)).map((instance) => instance.id).sort()).toEqual(['a', 'b']);
    const alone = proxy.trips();
    const filler = client.pipeline();
    for (let index = 0; index < 20_000; index += 1) filler.set(`${PREFIX}:b:page:0:/detail/1/${index}`, 'x');
    await filler.exec();
    proxy.reset();
    expect((await announcedInstances(client, PREFIX)).map((instance) => instance.id).sort()).toEqual(['a', 'b']);
    expect(proxy.trips()).toBe(alone);
    expect(alone).toBeLessThanOrEqual(2);
  });

  it('leaves out an announcement that expired and one withdrawn at stop', async () => {
    await writeAnnouncement(client, PREFIX, record('short', 3), 300);
    const id = `announcer-${randomUUID()}`;
    const announcer = new InstanceAnnouncer({ client, prefix: PREFIX, record: { id, url: 'http://127.0.0.1:4', build: 'b' }, onError: () => undefined });
    announcer.start();
    await waitUntil(async () => (await announcedInstances(client, PREFIX)).some((instance) => instance.id === id), 5000, 'the announcement');
    await announcer.stop();
    await waitUntil(async () => !(await announcedInstances(client, PREFIX)).some((instance) => instance.id === 'short'), 5000, 'the expiry');
    const listed = (await announcedInstances(client, PREFIX)).map((instance) => instance.id);
    expect(listed).not.toContain(id);
    expect(listed).not.toContain('short');
    expect(await client.zscore(`${PREFIX}:instances`, id)).toBeNull();
  });
});
