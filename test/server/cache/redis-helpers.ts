/** Helpers for cache suites on a real Redis: list, age and clean a test's own keys (its unique prefix). */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { announce } from '../../../server/cache/coherence';
import { announcedInstances } from '../../../server/cache/instances';
import type { PurgeSelector } from '../../../server/cache/invalidation';
import { acknowledgementsOf, ackKey } from '../../../server/cache/purge-acks';
import type { PurgeRecord } from '../../../server/cache/purge-record';
import { Purges } from '../../../server/cache/purges';
import { RedisStore } from '../../../server/cache/redis-store';
import { decodeEntry, encodeEntry } from '../../../server/cache/entry-codec';
import { testRedisUrl } from '../../support/requirements';

/**
 * A client on the test Redis and a key prefix of the suite's own, for the suite that calls this in its body: the
 * client opens before its tests, and after them the prefix's keys are deleted and the client closed.
 */
export function suiteRedis(): { readonly client: Redis; readonly prefix: string } {
  const prefix = `t${randomBytes(6).toString('hex')}`;
  let client: Redis | undefined;
  beforeAll(() => {
    client = new Redis(testRedisUrl());
  });
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), prefix);
    // QUIT, not disconnect: the socket is closed once Redis has answered, leaving nothing open behind the suite.
    await client?.quit();
  });
  return {
    prefix,
    get client(): Redis {
      if (!client) throw new Error('suiteRedis: the client opens in beforeAll');
      return client;
    },
  };
}

export async function withRedis<T>(url: string, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url);
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

export function keysOf(url: string, prefix: string): Promise<string[]> {
  return withRedis(url, (client) => client.keys(`${prefix}:*`));
}

/**
 * Moves every entry of the prefix into the past, as if stored that long ago: `seconds`, or with 'past-grace'
 * just past each entry's own ttl + grace (Redis's expiry is kept, so the entries stay held).
 */
export async function ageEntries(url: string, prefix: string, seconds: number | 'past-grace'): Promise<number> {
  return withRedis(url, async (client) => {
    const instances = await announcedInstances(client, prefix);
    const aged: string[] = [];
    for (const key of await client.keys(`${prefix}:*`)) {
      if ((await client.type(key)) !== 'string') continue;
      const raw = await client.getBuffer(key);
      // Cache entries only (text or binary, entry-codec.ts); locks and policy documents are left alone.
      const entry = raw === null ? null : decodeEntry(raw);
      if (!entry) continue;
      const by = seconds === 'past-grace' ? entry.ttl + entry.grace + 5 : seconds;
      entry.storedAt -= by * 1000;
      await client.set(key, encodeEntry(entry), 'KEEPTTL');
      aged.push(key);
    }
    // Portals hold in-process copies too: they drop them before the test goes on.
    await evictInProcessCopies(client, prefix, instances, aged);
    return aged.length;
  });
}

export async function deleteKeys(url: string, prefix: string): Promise<void> {
  await withRedis(url, async (client) => {
    // Asked before the delete, which takes the instances' announcements with it.
    const instances = await announcedInstances(client, prefix);
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length === 0) return;
    await client.del(...keys);
    // Running portals of the prefix drop their in-process copies too, before the test goes on.
    await dropInProcessCopies(client, prefix, instances);
  });
}

/**
 * Every cache entry of the prefix gone, from Redis and from every running instance's L1 (the instances'
 * announcements, the purge log and the policy stay): the next reads load from the upstream and store anew.
 */
export async function forgetEntries(url: string, prefix: string): Promise<void> {
  await withRedis(url, async (client) => {
    const instances = await announcedInstances(client, prefix);
    const entries: string[] = [];
    for (const key of await client.keys(`${prefix}:*`)) {
      if ((await client.type(key)) !== 'string') continue;
      const raw = await client.getBuffer(key);
      if (raw !== null && decodeEntry(raw)) entries.push(key);
    }
    if (entries.length > 0) await client.del(...entries);
    await dropInProcessCopies(client, prefix, instances);
  });
}

/** Every running portal of the prefix drops its in-process copies (after a change made in Redis behind its back). */
export async function dropL1Copies(url: string, prefix: string): Promise<void> {
  await withRedis(url, async (client) => evictInProcessCopies(client, prefix, await announcedInstances(client, prefix), await client.keys(`${prefix}:*`)));
}

/**
 * Every running instance of the prefix drops its in-process copies, whatever Redis holds, as a purge of everything
 * does: announced on the bus and acknowledged by each before this resolves (an `evict` announcement is handled some
 * time after PUBLISH returns, and a request sent in between would still be answered from the old copy). For
 * entries gone from Redis too: an instance that notes the purge reads every copy made before it as gone.
 */
async function dropInProcessCopies(client: Redis, prefix: string, instances: readonly { id: string }[]): Promise<void> {
  await acknowledged(client, prefix, instances, [{ by: 'all' }]);
}

/**
 * `keys` changed in Redis behind the instances' backs (aged, spoilt) and meant to be read from there: evicted from
 * their L1 as a write evicts them, then a purge of a key nobody holds, acknowledged by each instance once it has
 * handled what came before it on the bus. Not a purge of them: it would make them read as gone (purge-clock.ts).
 */
async function evictInProcessCopies(client: Redis, prefix: string, instances: readonly { id: string }[], keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await announce(client, prefix, { kind: 'evict', keys: [...keys] });
  await acknowledged(client, prefix, instances, [{ by: 'key', key: `${prefix}:barrier:${randomBytes(6).toString('hex')}` }]);
}

async function acknowledged(client: Redis, prefix: string, instances: readonly { id: string }[], selectors: PurgeSelector[]): Promise<void> {
  const id = `test-${randomBytes(6).toString('hex')}`;
  await announce(client, prefix, { kind: 'purge', purge: { id, selectors, build: '*' } });
  await acknowledgementsOf(
    client,
    prefix,
    id,
    instances.map((instance) => instance.id),
  );
  await client.del(ackKey(prefix, id));
}

export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A purge as `portal-cache purge` runs it (without edges): Redis, then every running instance's L1, resolved once
 * each has acknowledged, so the next request to any of them is answered without the purged copy.
 */
export async function purgeAsOperator(url: string, prefix: string, selector: PurgeSelector, soft = false): Promise<PurgeRecord> {
  const store = new RedisStore({ url });
  try {
    await eventually(async () => store.isAvailable(), Boolean, 5000);
    const purges = new Purges({
      store,
      prefix,
      client: store.client,
      self: null,
    });
    return await purges.run([selector], { tags: [], urls: [], soft, who: 'test', source: 'cli', what: JSON.stringify(selector) });
  } finally {
    await store.close();
  }
}
