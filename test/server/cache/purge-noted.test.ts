/**
 * When an instance notes a purge on its clock (purge-clock.ts): a load or render begun while the instance is still
 * dropping its old copies may read one, so what it builds must not be stored. The instance notes the purge again
 * once its own part is done, whether it made the purge, heard it from another or replays it from the log. The clock
 * is read with the system time set by the test (jest's modern fake timers), so the order is exact.
 */
import type { PurgeSelector } from '../../../server/cache/invalidation';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PurgeClock } from '../../../server/cache/purge-clock';
import { Purges, type LocalPurge } from '../../../server/cache/purges';

const PREFIX = 'p';
const DATA = `${PREFIX}:b1:data:_:list:2728:1:8`;
const TAGS = ['cat:2728', 'article:33727'];
const SELECTORS: PurgeSelector[] = [{ by: 'tag', tag: 'article:33727' }];
const BEFORE = 1_000_000;
const DURING = 2_000_000;

/** Purges over an in-process store whose own L1 purge waits until `release` is called; `began` resolves when it is under way. */
function purgesWithGate(clock: PurgeClock) {
  let release!: () => void;
  let began!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const underWay = new Promise<void>((resolve) => (began = resolve));
  const purges = new Purges({
    store: new MemoryStore(1024 * 1024),
    prefix: PREFIX,
    client: null,
    self: {
      id: 'instance-1',
      purgeLocal: async (): Promise<LocalPurge> => {
        began();
        await gate;
        return { entries: 1, keys: [DATA] };
      },
    },
    clock,
  });
  return { purges, underWay, release };
}

describe('a purge noted on the instance’s clock', () => {
  beforeEach(() => jest.useFakeTimers({ now: BEFORE, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it.each([
    ['heard from another instance', (purges: Purges) => purges.acknowledge({ id: 'a-purge', selectors: SELECTORS, build: '*' })],
    [
      'made by this one',
      (purges: Purges) => purges.run(SELECTORS, { tags: ['article:33727'], urls: [], soft: false, who: 'test', source: 'cli', what: 'article:33727' }),
    ],
  ] as const)('%s: what began before it or while this instance dropped its copies is not stored', async (_name, purge) => {
    const clock = new PurgeClock();
    const { purges, underWay, release } = purgesWithGate(clock);
    const done = purge(purges);
    await underWay;
    // A render begins while the instance is still dropping its L1 copies: it may read one of them.
    jest.setSystemTime(DURING);
    release();
    await done;
    expect(clock.purgedSince(DATA, TAGS, BEFORE)).toBe(true);
    expect(clock.purgedSince(DATA, TAGS, DURING)).toBe(true);
    // Begun once the instance's part was done: it read what the purge left.
    expect(clock.purgedSince(DATA, TAGS, DURING + 1)).toBe(false);
    purges.close();
  });
});
