/**
 * An answer stored in the shared store after a purge by an instance that had not heard of it yet: its load began
 * before the purge, so it holds what the purge took away. Every instance that has noted the purge reads it as
 * missing and loads anew, so no render builds a page on it (issue 39: a list page stored as the hook answered,
 * with hot news' old headline, read from Redis where the other instance had just stored it). Two caches on one
 * store, each with its own purge clock; the system time is set by the test, so the order is exact.
 */
import { Cache, type Loaded } from '../../../server/cache/cache';
import { PAGE_POLICY } from '../../../server/cache/policy';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PurgeClock } from '../../../server/cache/purge-clock';
import type { PurgeSelector } from '../../../server/cache/invalidation';
import { untilLoading } from '../../support/cache-loads';

const HOT_NEWS = 'p:b1:data:_:headline:5';
const TAGS = ['headline', 'article:33721'];
const LOAD_STARTS = 1_000_000;
const PURGED = 2_000_000;
const LATER = PURGED + 1000;

const answer = (value: string) => async (): Promise<Loaded<string>> => ({ value, cacheable: true, tags: TAGS });

describe('an answer stored after a purge by an instance that had not heard of it', () => {
  beforeEach(() => jest.useFakeTimers({ now: LOAD_STARTS, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  /** Instance B's load begins before the purge and is stored after it, B's clock not knowing yet. */
  async function storedLate(store: MemoryStore): Promise<void> {
    const late = new Cache(store, {}, null, new PurgeClock());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const loading = late.getOrLoad(HOT_NEWS, PAGE_POLICY.default, async () => {
      await held;
      return answer('the old headline')();
    });
    await untilLoading(late);
    jest.setSystemTime(PURGED);
    // The purge sweeps the shared store while B's load runs: nothing there yet.
    expect(await store.get(HOT_NEWS)).toBeNull();
    release();
    await loading;
    expect(await store.get(HOT_NEWS)).toMatchObject({ since: LOAD_STARTS });
  }

  it.each<[string, PurgeSelector]>([
    ['its tag', { by: 'tag', tag: 'article:33721' }],
    ['its key', { by: 'key', key: HOT_NEWS }],
    ['everything', { by: 'all' }],
  ])('an instance that noted a purge of %s reloads it instead of serving it', async (_what, selector) => {
    const store = new MemoryStore(1 << 20);
    const clock = new PurgeClock();
    const cache = new Cache(store, {}, null, clock);
    clock.note({ selectors: [selector], build: '*' }, PURGED);
    await storedLate(store);
    jest.setSystemTime(LATER);
    const served = await cache.getOrLoad(HOT_NEWS, PAGE_POLICY.default, answer('the corrected headline'));
    expect(served).toMatchObject({ value: 'the corrected headline', state: 'MISS' });
    // Stored again, from a load begun after the purge: the next read is a hit.
    expect(await cache.getOrLoad(HOT_NEWS, PAGE_POLICY.default, answer('not loaded'))).toMatchObject({ value: 'the corrected headline', state: 'HIT' });
  });

  it('a purge of something else, or one before the load began, leaves it a hit', async () => {
    const store = new MemoryStore(1 << 20);
    const clock = new PurgeClock();
    const cache = new Cache(store, {}, null, clock);
    clock.note({ selectors: [{ by: 'tag', tag: 'article:1' }], build: '*' }, PURGED);
    clock.note({ selectors: [{ by: 'tag', tag: 'article:33721' }], build: '*' }, LOAD_STARTS - 1);
    await storedLate(store);
    jest.setSystemTime(LATER);
    expect(await cache.getOrLoad(HOT_NEWS, PAGE_POLICY.default, answer('not loaded'))).toMatchObject({ value: 'the old headline', state: 'HIT' });
  });
});
