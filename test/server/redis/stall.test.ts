/**
 * A stall lasts until Redis answers again, and only an answer ends it: every cache command that was already on its
 * way when Redis froze (a read, a write batch, a lock) fails then, and none of those failures may read as an answer.
 * A write batch that "answered" its own timeout ended the stall mid-freeze, so the next readers waited out command
 * timeouts again (a 3 s answer under a 30 s freeze in redis-stall.test). A purge during a stall asks Redis, never
 * the reads that miss while it lasts. A real redis-server, frozen by SIGSTOP.
 */
import type { CacheEntry } from '../../../server/cache/entry';
import { Invalidator } from '../../../server/cache/invalidation';
import { RedisLock } from '../../../server/cache/redis-lock';
import { RedisStore } from '../../../server/cache/redis-store';
import { createRedisClient, type RedisClient } from '../../../server/redis/client';
import { RedisStall } from '../../../server/redis/stall';
import { parseRedisTarget } from '../../../server/platform/redis-target';
import { OwnRedis, waitUntil } from '../../support/redis-server';
import { describeWithRedisServers } from '../../support/requirements';

const COMMAND_TIMEOUT_MS = 300;

function entry(tags: string[]): CacheEntry {
  return { value: 'text', storedAt: Date.now(), ttl: 60, grace: 60, tags };
}

describeWithRedisServers()('a Redis stall', () => {
  let redis: OwnRedis;
  let client: RedisClient;
  let stall: RedisStall;
  const changes: boolean[] = [];
  let failedPings = 0;

  beforeEach(async () => {
    redis = await OwnRedis.start();
    client = createRedisClient(parseRedisTarget(redis.url), { role: 'portal', commandTimeoutMs: COMMAND_TIMEOUT_MS });
    client.on('error', () => undefined);
    changes.length = 0;
    // The stall's probes are the client's PINGs: counted as they fail, called through unchanged.
    failedPings = 0;
    const ping = client.ping.bind(client) as () => Promise<string>;
    jest.spyOn(client, 'ping').mockImplementation(() =>
      ping().catch((error: unknown) => {
        failedPings += 1;
        throw error;
      }),
    );
    stall = new RedisStall(client, { onChange: (stalled) => changes.push(stalled), probeEveryMs: 20 });
    await waitUntil(async () => client.status === 'ready', 5000, 'the client to connect');
  });

  afterEach(async () => {
    redis.resume();
    client.disconnect();
    await redis.stop();
  });

  it('outlasts every command that was on its way when Redis froze, and ends once Redis answers', async () => {
    const store = new RedisStore({ client, stall });
    const lock = new RedisLock(client, 5000, 25, undefined, undefined, stall);
    const held = await lock.tryAcquire('held');
    redis.pause();
    const inFlight = [
      store.get('a'),
      store.set('b', entry([])),
      store.set('c', entry(['tag-c'])),
      lock.tryAcquire('d').catch(() => null),
      lock.isHeld('held').catch(() => false),
      lock.renew('held', held!).catch(() => false),
    ];
    await Promise.all(inFlight);
    expect(stall.stalled).toBe(true);
    // Probes go on failing while Redis is frozen: still one stall, not ended, after three of them have failed.
    await waitUntil(async () => changes.length > 0, 5000, 'the stall to start');
    const failedBefore = failedPings;
    await waitUntil(async () => failedPings >= failedBefore + 3, 30_000, 'three probes to fail');
    expect(changes).toEqual([true]);
    expect(stall.stalled).toBe(true);
    expect(store.isAvailable()).toBe(false);

    redis.resume();
    await waitUntil(async () => !stall.stalled, 5000, 'the stall to end');
    expect(changes).toEqual([true, false]);
    expect(store.isAvailable()).toBe(true);
  });

  it('a purge made while the store counts Redis as stalled still finds what the tag names, or fails', async () => {
    // Reads miss at once during a stall (a reader renders instead of waiting); the purge must not take that for
    // "nothing held" and report success: its operator side asks Redis, and fails when Redis does not answer.
    const slowProbe = new RedisStall(client, { probeEveryMs: 60_000 });
    const store = new RedisStore({ client, stall: slowProbe });
    const space = { prefix: 'stalled', buildId: 'b1' };
    const page = 'stalled:b1:page:0:/';
    await store.set(page, { ...entry(['article:1']), reads: ['stalled:b1:data:_:show:1:1'] });
    redis.pause();
    await store.get(page);
    redis.resume();
    expect(slowProbe.stalled).toBe(true);
    const invalidator = new Invalidator(store, space);
    await expect(invalidator.purge({ by: 'url', siteId: 0, pathname: '/', search: null })).rejects.toThrow(/did not answer/);
    const byTag = await invalidator.purge({ by: 'tag', tag: 'article:1' });
    expect(byTag.keys).toEqual([page]);
    expect(await client.exists(page)).toBe(0);
  });
});
