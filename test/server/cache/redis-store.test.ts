/**
 * The Redis store's tag index, on a Redis of the suite's own: an entry's key joins each of its tag sets, and a
 * set lives as long as its longest-lived member, extended by a longer-lived entry and never shortened, so a purge
 * by tag finds every entry still held.
 */
import Redis from 'ioredis';
import type { CacheEntry } from '../../../server/cache/entry';
import { RedisStore } from '../../../server/cache/redis-store';
import { tagSetKey } from '../../../server/cache/tags';
import { OwnRedis } from '../../support/redis-server';

const PREFIX = 'tagindex';

function entry(seconds: number, tags: string[]): CacheEntry {
  return { value: 'text', storedAt: Date.now(), ttl: seconds / 2, grace: seconds / 2, tags };
}

/** A store on a Redis of the describe's own, with a plain client beside it to look at what it wrote. */
function storeOnOwnRedis(): { store: () => RedisStore; admin: () => Redis } {
  let redis: OwnRedis;
  let admin: Redis;
  let store: RedisStore;
  beforeAll(async () => {
    redis = await OwnRedis.start();
    admin = new Redis(redis.url);
    store = new RedisStore({ url: redis.url });
    const deadline = Date.now() + 5000;
    while (!store.isAvailable()) {
      if (Date.now() > deadline) throw new Error('the store did not connect within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  afterAll(async () => {
    await store.close();
    await admin.quit();
    await redis.stop();
  });
  return { store: () => store, admin: () => admin };
}

describe('RedisStore tag index', () => {
  const own = storeOnOwnRedis();
  let admin: Redis;
  let store: RedisStore;
  beforeAll(() => {
    admin = own.admin();
    store = own.store();
  });

  const members = async (tag: string) => (await admin.smembers(tagSetKey(PREFIX, tag))).sort();
  const lifetime = (tag: string) => admin.pttl(tagSetKey(PREFIX, tag));

  it('adds each entry to its tag sets, each set living as long as its longest-lived member', async () => {
    await store.set(`${PREFIX}:a`, entry(600, ['t1', 't2']));
    await store.set(`${PREFIX}:b`, entry(3600, ['t2', 't3']));
    await store.set(`${PREFIX}:c`, entry(60, ['t2']));
    expect(await members('t1')).toEqual([`${PREFIX}:a`]);
    expect(await members('t2')).toEqual([`${PREFIX}:a`, `${PREFIX}:b`, `${PREFIX}:c`]);
    expect(await members('t3')).toEqual([`${PREFIX}:b`]);
    // t1 holds only a's 600 s; t2 was extended to b's 3600 s and not shortened by c's 60 s.
    expect(await lifetime('t1')).toBeGreaterThan(590_000);
    expect(await lifetime('t1')).toBeLessThanOrEqual(600_000);
    expect(await lifetime('t2')).toBeGreaterThan(3_590_000);
    expect(await lifetime('t3')).toBeGreaterThan(3_590_000);
    expect(await admin.pttl(`${PREFIX}:c`)).toBeLessThanOrEqual(60_000);
  });

  it('stores an entry without tags and creates no set for it', async () => {
    const before = await admin.keys(`${PREFIX}:tag:*`);
    await store.set(`${PREFIX}:e`, entry(600, []));
    expect(await admin.exists(`${PREFIX}:e`)).toBe(1);
    expect((await admin.keys(`${PREFIX}:tag:*`)).sort()).toEqual(before.sort());
  });
});

describe('RedisStore.replaceIfHeld', () => {
  const own = storeOnOwnRedis();
  let admin: Redis;
  let store: RedisStore;
  beforeAll(() => {
    admin = own.admin();
    store = own.store();
  });

  const page = (storedAt: number): CacheEntry => ({
    value: Buffer.from('<html>页面</html>'),
    storedAt,
    ttl: 60,
    grace: 60,
    staleIfError: 600,
    tags: ['article:1'],
  });
  const text = (storedAt: number): CacheEntry => ({ value: '{"a":1}', storedAt, ttl: 60, grace: 60, tags: ['article:1'] });

  it.each([
    ['a page (framed bytes)', page],
    ['a data answer (JSON text)', text],
  ] as Array<[string, (storedAt: number) => CacheEntry]>)('rewrites %s only while it is the copy read', async (_kind, make) => {
    const key = `replace:${_kind.length}:${Date.now()}`;
    const read = make(Date.now() - 1000);
    await store.set(key, read);
    const stale = { ...read, storedAt: read.storedAt - 60_000 };
    expect(await store.replaceIfHeld(key, read, stale)).toBe(true);
    expect((await store.get(key))?.storedAt).toBe(stale.storedAt);
    expect(await admin.pttl(key)).toBeGreaterThan(0);

    // Stored anew since it was read: left as it is.
    const renewed = make(Date.now());
    await store.set(key, renewed);
    expect(await store.replaceIfHeld(key, read, stale)).toBe(false);
    expect((await store.get(key))?.storedAt).toBe(renewed.storedAt);

    // Deleted since: stays deleted.
    await store.delete(key);
    expect(await store.replaceIfHeld(key, renewed, stale)).toBe(false);
    expect(await admin.exists(key)).toBe(0);
  });

  it('tells apart two writes stored in the same millisecond by when their loads began', async () => {
    const key = `replace:same-ms:${Date.now()}`;
    const storedAt = Date.now();
    const read = { ...page(storedAt), since: storedAt - 40 };
    await store.set(key, { ...read, since: storedAt - 5 });
    expect(await store.replaceIfHeld(key, read, { ...read, storedAt: storedAt - 60_000 })).toBe(false);
    expect((await store.get(key))?.since).toBe(storedAt - 5);
  });

  it('leaves alone what is not an entry', async () => {
    await admin.set('replace:foreign', 'not an entry');
    await admin.set('replace:framed-garbage', Buffer.from([0x00, 0x43, 0x45, 0x31, 0, 0, 0, 3, 0x7b, 0x7b, 0x7b]));
    const read = page(Date.now());
    expect(await store.replaceIfHeld('replace:foreign', read, read)).toBe(false);
    expect(await store.replaceIfHeld('replace:framed-garbage', read, read)).toBe(false);
    expect(await admin.get('replace:foreign')).toBe('not an entry');
  });
});
