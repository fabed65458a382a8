import { Cache, type Loaded } from '../../../server/cache/cache';
import { MemoryStore } from '../../../server/cache/memory-store';

const POLICY = { ttl: 60, grace: 600, staleIfError: 0 };
const SIE_POLICY = { ttl: 60, grace: 600, staleIfError: 3600 };

function loaded<T>(value: T, cacheable = true): Loaded<T> {
  return { value, cacheable, tags: ['cat:1'] };
}

describe('Cache (read-through with TTL and grace)', () => {
  let now: number;
  let nowSpy: jest.SpyInstance<number, []>;

  beforeEach(() => {
    now = Date.UTC(2026, 10, 23);
    nowSpy = jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => nowSpy.mockRestore());

  it('loads on a miss, then serves the stored value as a HIT, with when it was stored', async () => {
    const cache = new Cache(new MemoryStore(1 << 20));
    const load = jest.fn(async () => loaded({ n: 1 }));
    expect(await cache.getOrLoad('k', POLICY, load)).toEqual({ value: { n: 1 }, state: 'MISS', tags: ['cat:1'], loadStartedAt: now });
    const storedAt = now;
    now += 5_000;
    expect(await cache.getOrLoad('k', POLICY, load)).toEqual({ value: { n: 1 }, state: 'HIT', tags: ['cat:1'], storedAt });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('coalesces concurrent misses for one key into one load', async () => {
    const cache = new Cache(new MemoryStore(1 << 20));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = jest.fn(async () => {
      await gate;
      return loaded('v');
    });
    const waiting = Array.from({ length: 50 }, () => cache.getOrLoad('k', POLICY, load));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const results = await Promise.all(waiting);
    expect(load).toHaveBeenCalledTimes(1);
    expect(results.every((result) => result.value === 'v')).toBe(true);
  });

  it('serves a stale entry within grace and refreshes it once in the background', async () => {
    const cache = new Cache(new MemoryStore(1 << 20));
    await cache.getOrLoad('k', POLICY, async () => loaded('old'));
    now += 61_000;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const refresh = jest.fn(async () => {
      await gate;
      return loaded('new');
    });
    expect((await cache.getOrLoad('k', POLICY, refresh)).value).toBe('old');
    expect((await cache.getOrLoad('k', POLICY, refresh)).state).toBe('STALE');
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(await cache.getOrLoad('k', POLICY, refresh)).toMatchObject({ value: 'new', state: 'HIT' });
  });

  it('treats an entry past ttl + grace as missing', async () => {
    const cache = new Cache(new MemoryStore(1 << 20));
    await cache.getOrLoad('k', POLICY, async () => loaded('old'));
    now += 661_000;
    expect(await cache.getOrLoad('k', POLICY, async () => loaded('new'))).toMatchObject({ value: 'new', state: 'MISS' });
  });

  it('never stores what the loader marks uncacheable', async () => {
    const cache = new Cache(new MemoryStore(1 << 20));
    await cache.getOrLoad('k', POLICY, async () => loaded('error page', false));
    expect(await cache.peek('k')).toBeNull();
  });

  it('serves the held entry when a refresh fails (stale-if-error), and rethrows with nothing held', async () => {
    const cache = new Cache(new MemoryStore(1 << 20));
    const failing = async (): Promise<Loaded<string>> => {
      throw new Error('upstream down');
    };
    await expect(cache.getOrLoad('none', POLICY, failing)).rejects.toThrow('upstream down');
    await cache.getOrLoad('k', POLICY, async () => loaded('kept'));
    now += 61_000;
    expect((await cache.getOrLoad('k', POLICY, failing)).value).toBe('kept');
  });
});

describe('Cache stale-if-error past grace', () => {
  let now: number;
  let nowSpy: jest.SpyInstance<number, []>;
  const failing = async (): Promise<Loaded<string>> => {
    throw new Error('upstream down');
  };

  beforeEach(() => {
    now = Date.UTC(2026, 10, 23);
    nowSpy = jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => nowSpy.mockRestore());

  it('reloads an entry past grace, and serves it as STALE only when the reload fails', async () => {
    const cache = new Cache(new MemoryStore(1 << 20));
    await cache.getOrLoad('k', SIE_POLICY, async () => loaded('old'));
    now += 700_000; // past ttl + grace (660 s), within stale-if-error
    expect(await cache.getOrLoad('k', SIE_POLICY, failing)).toMatchObject({ value: 'old', state: 'STALE' });
    expect(await cache.getOrLoad('k', SIE_POLICY, async () => loaded('new'))).toMatchObject({ value: 'new', state: 'MISS' });
  });

  it('keeps the entry in the store for ttl + grace + staleIfError, then it is gone', async () => {
    const cache = new Cache(new MemoryStore(1 << 20));
    await cache.getOrLoad('k', SIE_POLICY, async () => loaded('old'));
    expect(await cache.peek('k')).toMatchObject({ staleIfError: 3600 });
    now += (60 + 600 + 3600) * 1000 + 1000;
    await expect(cache.getOrLoad('k', SIE_POLICY, failing)).rejects.toThrow('upstream down');
  });
});

describe('MemoryStore', () => {
  it('is bounded by bytes, evicting the least recently used entries', async () => {
    const store = new MemoryStore(10_000);
    const entry = (value: string) => ({ value, storedAt: Date.now(), ttl: 60, grace: 60, tags: [] });
    await store.set('a', entry('x'.repeat(2000)));
    await store.set('b', entry('y'.repeat(2000)));
    await store.get('a');
    await store.set('c', entry('z'.repeat(2000)));
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(await store.get('b')).toBeNull();
    expect((await store.get('a'))?.value).toHaveLength(2000);
    expect((await store.get('c'))?.value).toHaveLength(2000);
    // Counted for portal_cache_l1_evictions_total: room made, not a delete or a replacement.
    expect(store.evictions).toBe(1);
    expect(store.maxBytes).toBe(10_000);
    await store.delete('a');
    await store.set('c', entry('w'.repeat(2000)));
    expect(store.evictions).toBe(1);
  });

  it('refuses an entry larger than the whole store instead of emptying it', async () => {
    const store = new MemoryStore(1000);
    await store.set('small', { value: 'ok', storedAt: Date.now(), ttl: 60, grace: 60, tags: [] });
    await store.set('huge', { value: 'x'.repeat(5000), storedAt: Date.now(), ttl: 60, grace: 60, tags: [] });
    expect(await store.get('huge')).toBeNull();
    expect((await store.get('small'))?.value).toBe('ok');
  });
});
