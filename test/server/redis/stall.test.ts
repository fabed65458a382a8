/**
 * A stall lasts until Redis answers again, and only an answer ends it: every cache command that was already on its
 * way when Redis froze (a read, a write batch, a lock) fails then, and none of those failures may read as an answer.
 * A write batch that "answered" its own timeout ended the stall mid-freeze, so the next readers waited out command
 * timeouts again (a 3 s answer under a 30 s freeze in redis-stall.test). A real redis-server, frozen by SIGSTOP.
 */
import type { CacheEntry } from '../../../server/cache/entry';
import { RedisLock } from '../../../server/cache/redis-lock';
import { RedisStore } from '../../../server/cache/redis-store';
import { createRedisClient, type RedisClient } from '../../../server/redis/client';
import { RedisStall } from '../../../server/redis/stall';
import { parseRedisTarget } from '../../../server/redis/target';
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

  beforeEach(async () => {
    redis = await OwnRedis.start();
    client = createRedisClient(parseRedisTarget(redis.url), { role: 'portal', commandTimeoutMs: COMMAND_TIMEOUT_MS });
    client.on('error', () => undefined);
    changes.length = 0;
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
    // Probes go on failing while Redis is frozen: still one stall, not ended.
    await waitUntil(async () => changes.length > 0, 5000, 'the stall to start');
    // The freeze lasting a few probes is the scenario itself, not a wait for a condition.
    await new Promise((resolve) => setTimeout(resolve, 3 * COMMAND_TIMEOUT_MS));
    expect(changes).toEqual([true]);
    expect(stall.stalled).toBe(true);
    expect(store.isAvailable()).toBe(false);

    redis.resume();
    await waitUntil(async () => !stall.stalled, 5000, 'the stall to end');
    expect(changes).toEqual([true, false]);
    expect(store.isAvailable()).toBe(true);
  });
});
