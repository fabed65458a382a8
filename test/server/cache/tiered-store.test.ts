/** The in-process tier in front of Redis: what it keeps of an entry read from the shared tier. */
import { freshnessOf, type CacheEntry } from '../../../server/cache/entry';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PurgeClock } from '../../../server/cache/purge-clock';
import { TieredStore } from '../../../server/cache/tiered-store';

const META = { storedAt: Date.now(), ttl: 60, grace: 60, staleIfError: 0, tags: ['page:home'] };

describe('TieredStore', () => {
  it('keeps its own copy of a byte value read from the shared tier, not the reply buffer it was cut from', async () => {
    const reply = Buffer.alloc(1024 * 1024, 7);
    const l2 = new MemoryStore(8 * 1024 * 1024);
    await l2.set('k', { ...META, value: reply.subarray(1000, 101_000) });
    const l1 = new MemoryStore(8 * 1024 * 1024);
    const tiered = new TieredStore({ l1, l2, unsubscribedSince: () => null, outage: () => ({ window: 0, ttl: 30 }), announceEvict: () => undefined });

    const read = (await tiered.get('k')) as CacheEntry & { value: Buffer };
    const held = (await l1.get('k')) as CacheEntry & { value: Buffer };
    expect(held.value.equals(reply.subarray(1000, 101_000))).toBe(true);
    expect(held.value.buffer.byteLength).toBeLessThan(reply.length);
    expect(held.value.buffer).not.toBe(reply.buffer);
    expect(read.value).toBe(held.value);
  });

  it('tells at once what get would answer only when L1 may answer and holds the key', async () => {
    const l1 = new MemoryStore(1024 * 1024);
    const l2 = new MemoryStore(1024 * 1024);
    let lostAt: number | null = null;
    l2.isAvailable = () => true;
    const tiered = new TieredStore({ l1, l2, unsubscribedSince: () => lostAt, outage: () => ({ window: 60, ttl: 30 }), announceEvict: () => undefined });
    await l2.set('k', { ...META, value: 'in Redis' });
    // Only Redis holds it: only get can tell.
    expect(tiered.getNow('k')).toBeUndefined();
    expect((await tiered.get('k'))?.value).toBe('in Redis');
    // get filled L1: now it answers in the same turn, the same entry get would.
    expect(tiered.getNow('k')?.value).toBe('in Redis');
    // Subscription lost with Redis reachable: L1 may have missed a purge, so Redis must be asked.
    lostAt = Date.now();
    expect(tiered.getNow('k')).toBeUndefined();
  });

  it('reads a page in one form from Redis only while L1 may not answer: otherwise a whole read fills L1', async () => {
    const l1 = new MemoryStore(1024 * 1024);
    const asked: string[] = [];
    const l2 = Object.assign(new MemoryStore(1024 * 1024), {
      getPageForm: (key: string, form: string) => {
        asked.push(`${key} ${form}`);
        return Promise.resolve(null);
      },
    });
    l2.isAvailable = () => true;
    let lostAt: number | null = null;
    const tiered = new TieredStore({ l1, l2, unsubscribedSince: () => lostAt, outage: () => ({ window: 60, ttl: 30 }), announceEvict: () => undefined });
    expect(tiered.getPageForm('k', 'gzip')).toBeUndefined();
    lostAt = Date.now();
    expect(await tiered.getPageForm('k', 'gzip')).toBeNull();
    expect(asked).toEqual(['k gzip']);
  });

  it('keeps text values as they are', async () => {
    const l2 = new MemoryStore(1024 * 1024);
    await l2.set('k', { ...META, value: '{"code":0}' });
    const l1 = new MemoryStore(1024 * 1024);
    const tiered = new TieredStore({ l1, l2, unsubscribedSince: () => null, outage: () => ({ window: 0, ttl: 30 }), announceEvict: () => undefined });
    expect((await tiered.get('k'))?.value).toBe('{"code":0}');
    expect((await l1.get('k'))?.value).toBe('{"code":0}');
  });

  it('answers from L1 without announcements only while Redis is unreachable: as usual within the window, with short TTLs past it', async () => {
    const l1 = new MemoryStore(1024 * 1024);
    const l2 = new MemoryStore(1024 * 1024);
    let reachable = true;
    let lostAt: number | null = null;
    l2.isAvailable = () => reachable;
    const tiered = new TieredStore({ l1, l2, unsubscribedSince: () => lostAt, outage: () => ({ window: 60, ttl: 30 }), announceEvict: () => undefined });
    await l1.set('k', { ...META, value: 'held in L1' });
    await l2.set('k', { ...META, value: 'in Redis' });
    expect((await tiered.get('k'))?.value).toBe('held in L1');

    // Subscription lost, Redis unreachable: L1 answers, and says it is unverified.
    lostAt = Date.now();
    reachable = false;
    expect((await tiered.get('k'))?.value).toBe('held in L1');
    expect(tiered.servingUnverified()).toBe(true);
    expect(tiered.mode()).toBe('outage');
    // Redis reachable again but not yet subscribed: Redis has every purge, L1 may not.
    reachable = true;
    expect((await tiered.get('k'))?.value).toBe('in Redis');
    expect(tiered.servingUnverified()).toBe(false);
    expect(tiered.mode()).toBe('bypass');
    // Unreachable for longer than the window: L1 still answers, each entry fresh for at most the outage TTL and in
    // grace for as long again, the same object on every hit (decoded once).
    reachable = false;
    lostAt = Date.now() - 60_001;
    await l2.delete('k');
    expect(tiered.mode()).toBe('outage-short-ttl');
    expect(tiered.servingUnverified()).toBe(true);
    // (Fresh until its key's own moment, within the TTL; the next test shows the moments.)
    const short = await tiered.get('k');
    expect(short).toMatchObject({ value: 'held in L1', grace: 30 });
    expect(short!.ttl).toBeGreaterThanOrEqual(1);
    expect(short!.ttl).toBeLessThanOrEqual(30);
    expect(tiered.getNow('k')).toBe(short);
    // What it stores now is kept in its short form.
    await tiered.set('n', { ...META, value: 'rendered in the outage', ttl: 600, grace: 3600 });
    const stored = await l1.get('n');
    expect(stored).toMatchObject({ grace: 30 });
    expect(stored!.ttl).toBeGreaterThanOrEqual(1);
    expect(stored!.ttl).toBeLessThanOrEqual(30);
  });

  it('past the outage window, lets the entries it held expire spread over the outage TTL, not all in its last second', async () => {
    const l1 = new MemoryStore(16 * 1024 * 1024);
    const l2 = new MemoryStore(1024 * 1024);
    l2.isAvailable = () => false;
    const window = 300;
    const ttl = 30;
    const windowEnd = Date.now() - 1;
    const tiered = new TieredStore({
      l1,
      l2,
      unsubscribedSince: () => windowEnd - window * 1000,
      outage: () => ({ window, ttl }),
      announceEvict: () => undefined,
    });
    // A thousand pages stored five minutes before the window's end, fresh for ten minutes by their own policy:
    // with short TTLs counted from when they were stored, every one of them would be past grace at once.
    const keys = Array.from({ length: 1000 }, (_, index) => `portal:b:page:1:/detail/2728/${30000 + index}`);
    for (const key of keys) await l1.set(key, { ...META, value: key, storedAt: windowEnd - 300_000, ttl: 600, grace: 1200 });
    expect(tiered.mode()).toBe('outage-short-ttl');
    const served = keys.map((key) => tiered.getNow(key)!);
    const at = (seconds: number) => served.map((entry) => freshnessOf(entry, windowEnd + seconds * 1000));

    // At the window's end every one is still served without a render; each goes stale in a second of its own
    // within the outage TTL (no second holds more than twice its share), and is past grace within twice the TTL
    // of the window's end: a purge missed then is outlived by at most twice the outage TTL, as before.
    expect(at(0.001).filter((state) => state !== 'fresh')).toHaveLength(0);
    const staleBySecond = Array.from({ length: ttl }, (_, second) => at(second + 1).filter((state) => state !== 'fresh').length);
    const perSecond = staleBySecond.map((count, second) => count - (second === 0 ? 0 : staleBySecond[second - 1]!));
    expect(Math.max(...perSecond)).toBeLessThanOrEqual((2 * keys.length) / ttl);
    expect(staleBySecond[ttl - 1]).toBe(keys.length);
    const servable = (state: string) => state === 'fresh' || state === 'stale';
    expect(at(ttl).filter(servable)).toHaveLength(keys.length);
    expect(at(2 * ttl).filter(servable)).toHaveLength(0);
    // Each is the same object on every read (decoded once), and keeps its true age (Age is honest).
    expect(tiered.getNow(keys[0]!)).toBe(served[0]);
    expect(served[0]!.storedAt).toBe(windowEnd - 300_000);
  });
});

/** Seconds `from` on, how many of `entries` first go stale (not fresh) in each of `seconds` seconds. */
function goingStaleBySecond(entries: readonly CacheEntry[], from: number, seconds: number): number[] {
  const notFresh = (second: number) => entries.filter((entry) => freshnessOf(entry, from + second * 1000) !== 'fresh').length;
  return Array.from({ length: seconds }, (_, second) => notFresh(second + 1) - notFresh(second));
}

describe('TieredStore past the outage window, entries stored together', () => {
  it("go stale each at its key's own moment, not all together again a TTL later, and stay there when refreshed", async () => {
    const l1 = new MemoryStore(16 * 1024 * 1024);
    const l2 = new MemoryStore(1024 * 1024);
    l2.isAvailable = () => false;
    const window = 300;
    const ttl = 30;
    const windowEnd = Date.now() - 1;
    const tiered = new TieredStore({
      l1,
      l2,
      unsubscribedSince: () => windowEnd - window * 1000,
      outage: () => ({ window, ttl }),
      announceEvict: () => undefined,
    });
    // A thousand entries stored in one moment past the window's end: what a render loads (its data), or what an
    // instance that lacked them renders as readers come (it was restarted, or never held them).
    const keys = Array.from({ length: 1000 }, (_, index) => `portal:b:data:article:${30000 + index}`);
    const storedAt = windowEnd + 7_300;
    for (const key of keys) await tiered.set(key, { ...META, value: key, storedAt, ttl: 300, grace: 3600 });
    const held = keys.map((key) => tiered.getNow(key)!);

    // Each is fresh when stored and goes stale within the outage TTL, in a second of its own (no second holds more
    // than twice its share), past grace within twice the TTL: the staleness bound of the short TTLs.
    expect(held.filter((entry) => freshnessOf(entry, storedAt) !== 'fresh')).toHaveLength(0);
    const stale = goingStaleBySecond(held, storedAt, ttl);
    expect(stale.reduce((sum, count) => sum + count, 0)).toBe(keys.length);
    expect(Math.max(...stale)).toBeLessThanOrEqual((2 * keys.length) / ttl);
    const servable = (entry: CacheEntry) => ['fresh', 'stale'].includes(freshnessOf(entry, storedAt + 2 * ttl * 1000));
    expect(held.filter(servable)).toHaveLength(0);

    // Each refreshed as it goes stale (stored again a moment later): its next one is a TTL after its last.
    const staleAt = held.map((entry) => entry.storedAt + entry.ttl * 1000);
    for (const [index, key] of keys.entries()) await tiered.set(key, { ...META, value: key, storedAt: staleAt[index]! + 700, ttl: 300, grace: 3600 });
    const refreshed = keys.map((key) => tiered.getNow(key)!);
    const drift = refreshed.map((entry, index) => Math.abs(entry.storedAt + entry.ttl * 1000 - (staleAt[index]! + ttl * 1000)));
    expect(Math.max(...drift)).toBeLessThanOrEqual(1000);
  });
});

describe('TieredStore reading Redis across a purge', () => {
  /** A shared tier whose reads answer when the test says: the purge comes while one is on its way. */
  function heldReads(l2: MemoryStore): { store: MemoryStore; release: () => void; reading: Promise<void> } {
    let release!: () => void;
    let started!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reading = new Promise<void>((resolve) => (started = resolve));
    const store = Object.create(l2) as MemoryStore;
    store.get = async (key: string) => {
      const entry = await l2.get(key);
      started();
      await gate;
      return entry;
    };
    return { store, release, reading };
  }

  it.each([
    ['a purge covering it', 'page:home', null],
    ['a purge of something else', 'article:1', 'the copy from Redis'],
  ])('a read begun before %s answers with what Redis held, and fills L1 only when the purge does not cover it', async (_what, tag, expected) => {
    const l2 = new MemoryStore(1 << 20);
    await l2.set('k', { ...META, storedAt: Date.now(), value: 'the copy from Redis' });
    const held = heldReads(l2);
    const clock = new PurgeClock();
    const l1 = new MemoryStore(1 << 20);
    const tiered = new TieredStore({
      l1,
      l2: held.store,
      unsubscribedSince: () => null,
      outage: () => ({ window: 0, ttl: 30 }),
      announceEvict: () => undefined,
      purges: clock,
    });
    const read = tiered.get('k');
    await held.reading;
    // Another instance's purge, heard and applied here while Redis was answering (its old copy already on the wire).
    clock.note({ selectors: [{ by: 'tag', tag }], build: '*' }, Date.now() + 1);
    held.release();
    // The read began before the purge: it answers (an existence check of a purge must see the key), L1 keeps it or not.
    expect((await read)?.value).toBe('the copy from Redis');
    expect((await l1.get('k'))?.value ?? null).toBe(expected);
  });
});
