/**
 * A render that joins a load already running gets what that load read, from its start: if a purge came between the
 * load's start and the render's, the page built on it must not be stored (issue 39: a list page stored half a second
 * after a correction, with hot news' old headline, because its render joined hot news' load begun before the purge).
 * The system time is set by the test (jest's modern fake timers), so the order is exact.
 */
import { Cache, type Loaded } from '../../../server/cache/cache';
import { PAGE_POLICY } from '../../../server/cache/policy';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PurgeClock } from '../../../server/cache/purge-clock';
import { CallRecorder } from '../../../server/upstream/content-service';
import { untilLoading } from '../../support/cache-loads';

const DATA = 'p:b1:data:_:list:3281:1:5';
const PAGE = 'p:b1:page:0:/wenlv/wenhua/V1/2781';
const TAGS = ['cat:3281', 'article:33721'];
const LOAD_STARTS = 1_000_000;
const PURGED = 2_000_000;
const RENDER_STARTS = 3_000_000;

describe('a render that joins a load begun before a purge', () => {
  beforeEach(() => jest.useFakeTimers({ now: LOAD_STARTS, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('reads from the load’s start, so the clock keeps its page from being stored', async () => {
    const clock = new PurgeClock();
    const cache = new Cache(new MemoryStore(1 << 20), {}, null, clock);
    let answer!: (loaded: Loaded<string>) => void;
    const upstream = new Promise<Loaded<string>>((resolve) => (answer = resolve));
    // An earlier render asks for hot news: the CMS answers with the headline the correction is about to replace.
    const first = cache.getOrLoad(DATA, PAGE_POLICY.default, () => upstream);
    await untilLoading(cache);
    jest.setSystemTime(PURGED);
    clock.note({ selectors: [{ by: 'tag', tag: 'article:33721' }], build: '*' });
    // A render begun after the purge asks for hot news while that load still runs: it joins it.
    jest.setSystemTime(RENDER_STARTS);
    const recorder = new CallRecorder();
    const joined = cache.getOrLoad(DATA, PAGE_POLICY.default, () => Promise.reject(new Error('joined, not loaded again')));
    answer({ value: 'the old headline', cacheable: true, tags: TAGS });
    const [, served] = await Promise.all([first, joined]);
    expect(served).toMatchObject({ value: 'the old headline', state: 'MISS', loadStartedAt: LOAD_STARTS });
    recorder.record(DATA, served.state, served.tags, served.loadStartedAt);
    expect(recorder.startedAt).toBe(RENDER_STARTS);
    expect(recorder.readsFrom).toBe(LOAD_STARTS);
    // Its page: built on what was read before the purge, so not stored; the data entry was not either.
    expect(clock.purgedSince(PAGE, [...recorder.tags], recorder.readsFrom)).toBe(true);
    expect(await cache.peek(DATA)).toBeNull();
  });

  it('a render that loads on its own reads from its own start', async () => {
    const cache = new Cache(new MemoryStore(1 << 20), {}, null, new PurgeClock());
    jest.setSystemTime(RENDER_STARTS);
    const recorder = new CallRecorder();
    const served = await cache.getOrLoad(DATA, PAGE_POLICY.default, async () => ({ value: 'the new headline', cacheable: true, tags: TAGS }));
    recorder.record(DATA, served.state, served.tags, served.loadStartedAt);
    expect(recorder.readsFrom).toBe(RENDER_STARTS);
  });
});
