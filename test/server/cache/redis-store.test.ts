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
function storeOnOwnRedis(): { store: RedisStore; admin: Redis } {
  const own = {} as { store: RedisStore; admin: Redis; redis: OwnRedis };
  beforeAll(async () => {
    own.redis = await OwnRedis.start();
    own.admin = new Redis(own.redis.url);
    own.store = new RedisStore({ url: own.redis.url });
    const deadline = Date.now() + 5000;
    while (!own.store.isAvailable()) {
      if (Date.now() > deadline) throw new Error('the store did not connect within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  afterAll(async () => {
    await own.store.close();
    await own.admin.quit();
    await own.redis.stop();
  });
  return own;
}

describe('RedisStore tag index', () => {
  const own = storeOnOwnRedis();

  const members = async (tag: string) => (await own.admin.smembers(tagSetKey(PREFIX, tag))).sort();
  const lifetime = (tag: string) => own.admin.pttl(tagSetKey(PREFIX, tag));

  it('adds each entry to its tag sets, each set living as long as its longest-lived member', async () => {
    await own.store.set(`${PREFIX}:a`, entry(600, ['t1', 't2']));
    await own.store.set(`${PREFIX}:b`, entry(3600, ['t2', 't3']));
    await own.store.set(`${PREFIX}:c`, entry(60, ['t2']));
    expect(await members('t1')).toEqual([`${PREFIX}:a`]);
    expect(await members('t2')).toEqual([`${PREFIX}:a`, `${PREFIX}:b`, `${PREFIX}:c`]);
    expect(await members('t3')).toEqual([`${PREFIX}:b`]);
    // t1 holds only a's 600 s; t2 was extended to b's 3600 s and not shortened by c's 60 s.
    expect(await lifetime('t1')).toBeGreaterThan(590_000);
    expect(await lifetime('t1')).toBeLessThanOrEqual(600_000);
    expect(await lifetime('t2')).toBeGreaterThan(3_590_000);
    expect(await lifetime('t3')).toBeGreaterThan(3_590_000);
    expect(await own.admin.pttl(`${PREFIX}:c`)).toBeLessThanOrEqual(60_000);
  });

  it('stores an entry without tags and creates no set for it', async () => {
    const before = await own.admin.keys(`${PREFIX}:tag:*`);
    await own.store.set(`${PREFIX}:e`, entry(600, []));
    expect(await own.admin.exists(`${PREFIX}:e`)).toBe(1);
    expect((await own.admin.keys(`${PREFIX}:tag:*`)).sort()).toEqual(before.sort());
  });
});

describe('RedisStore.markStale', () => {
  const own = storeOnOwnRedis();

  const page = (storedAt: number): CacheEntry => ({
    value: Buffer.from('<html>页面</html>'),
    storedAt,
    ttl: 60,
    grace: 60,
    staleIfError: 600,
    tags: ['article:1'],
  });
  const text = (storedAt: number): CacheEntry => ({ value: '{"a":1,"storedAt":5}', storedAt, ttl: 60, grace: 60, tags: ['article:1'] });

  it.each([
    ['a page (framed bytes)', page],
    ['a data answer (JSON text)', text],
  ] as Array<[string, (storedAt: number) => CacheEntry]>)('marks %s stale in Redis itself, its value and expiry kept', async (kind, make) => {
    const key = `mark:${kind.length}:${Date.now()}`;
    const fresh = make(Date.now() - 1000);
    await own.store.set(key, fresh);
    const expiry = await own.admin.pttl(key);
    const now = Date.now();
    expect(await own.store.markStale(key, now, now)).toBe('marked');
    const marked = await own.store.get(key);
    expect(marked).toEqual({ ...fresh, storedAt: now - 60_000 });
    expect(await own.admin.pttl(key)).toBeGreaterThan(expiry - 5000);
    // Stale now: held as it is.
    expect(await own.store.markStale(key, Date.now(), now)).toBe('held');
    expect((await own.store.get(key))?.storedAt).toBe(now - 60_000);
  });

  it.each([
    ['a page (framed bytes)', page],
    ['a data answer (JSON text)', text],
  ] as Array<[string, (storedAt: number) => CacheEntry]>)('marks %s expired (past its TTL and grace), from fresh or from stale', async (kind, make) => {
    const key = `mark:expired:${kind.length}:${Date.now()}`;
    const fresh = make(Date.now() - 1000);
    await own.store.set(key, fresh);
    const now = Date.now();
    expect(await own.store.markStale(key, now, now, 'stale')).toBe('marked');
    // Stale is not far enough for an expired mark: moved on by its grace.
    expect(await own.store.markStale(key, now, now, 'expired')).toBe('marked');
    expect(await own.store.get(key)).toEqual({ ...fresh, storedAt: now - 120_000 });
    expect(await own.store.markStale(key, Date.now(), now, 'expired')).toBe('held');
    expect(await own.store.markStale(key, Date.now(), now, 'stale')).toBe('held');
  });

  it.each([
    ['a page (framed bytes)', page],
    ['a data answer (JSON text)', text],
  ] as Array<[string, (storedAt: number) => CacheEntry]>)('notes on %s each item withdrawn once, expired or not', async (kind, make) => {
    const key = `mark:withdrawn:${kind.length}:${Date.now()}`;
    const fresh = make(Date.now() - 1000);
    await own.store.set(key, fresh);
    const now = Date.now();
    expect(await own.store.markStale(key, now, now, 'expired', 'article:1')).toBe('marked');
    expect(await own.store.get(key)).toEqual({ ...fresh, storedAt: now - 120_000, withdrawn: ['article:1'] });
    // Expired already: a second item is still noted, the first not twice.
    expect(await own.store.markStale(key, Date.now(), now, 'expired', 'article:2')).toBe('marked');
    expect(await own.store.markStale(key, Date.now(), now, 'expired', 'article:1')).toBe('held');
    expect(await own.store.get(key)).toEqual({ ...fresh, storedAt: now - 120_000, withdrawn: ['article:1', 'article:2'] });
  });

  it('leaves fresh what was loaded from the purge on, and brings back nothing deleted', async () => {
    const key = `mark:loaded-after:${Date.now()}`;
    const loadsFrom = Date.now() - 10;
    await own.store.set(key, { ...page(Date.now()), since: loadsFrom });
    expect(await own.store.markStale(key, Date.now(), loadsFrom)).toBe('held');
    expect((await own.store.get(key))?.since).toBe(loadsFrom);
    expect(await own.store.markStale(key, Date.now(), loadsFrom + 1)).toBe('marked');

    await own.store.delete(key);
    expect(await own.store.markStale(key, Date.now(), loadsFrom)).toBe('gone');
    expect(await own.admin.exists(key)).toBe(0);
  });

  it('leaves alone what is not an entry', async () => {
    await own.admin.set('mark:foreign', 'not an entry');
    await own.admin.set('mark:framed-garbage', Buffer.from([0x00, 0x43, 0x45, 0x31, 0, 0, 0, 3, 0x7b, 0x7b, 0x7b]));
    expect(await own.store.markStale('mark:foreign', Date.now(), 0)).toBe('gone');
    expect(await own.store.markStale('mark:framed-garbage', Date.now(), 0)).toBe('gone');
    expect(await own.admin.get('mark:foreign')).toBe('not an entry');
  });
});
