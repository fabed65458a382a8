/**
 * BackgroundCheck (server/background-check.ts): a reader gets the last answer at once, whatever the dependency is
 * doing. The clock is jest's (Date.now only), so "older than" and "past its bound" are set, not waited for.
 */
import { BackgroundCheck } from '../../server/platform/background-check';

interface Pending<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

/** A check whose answers the test gives by hand, one per call. */
function manualCheck<T>(): { check: () => Promise<T>; calls: Array<Pending<T>> } {
  const calls: Array<Pending<T>> = [];
  return { calls, check: () => new Promise<T>((resolve, reject) => calls.push({ resolve, reject })) };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('BackgroundCheck', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'], now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('asks once at start and reads as failed until the first answer', async () => {
    const { check, calls } = manualCheck<string>();
    const state = new BackgroundCheck(check, { maxAgeMs: 1000, boundMs: 500, failed: 'down' });
    expect([calls.length, state.current()]).toEqual([1, 'down']);
    calls[0]!.resolve('up');
    await flush();
    expect(state.current()).toBe('up');
  });

  it('answers at once while a check hangs, and as failed once the check outlives its bound', async () => {
    const { check, calls } = manualCheck<string>();
    const state = new BackgroundCheck(check, { maxAgeMs: 1000, boundMs: 500, failed: 'down' });
    calls[0]!.resolve('up');
    await flush();
    jest.setSystemTime(Date.now() + 1000);
    // Stale: a new check starts, and the read still gets the last answer without waiting for it.
    expect([state.current(), calls.length]).toEqual(['up', 2]);
    jest.setSystemTime(Date.now() + 500);
    expect(state.current()).toBe('up');
    jest.setSystemTime(Date.now() + 1);
    expect([state.current(), calls.length]).toEqual(['down', 2]);
    // The dependency answers again: so does the state, and the next stale read asks once more.
    calls[1]!.resolve('up');
    await flush();
    expect(state.current()).toBe('up');
  });

  it('never runs two checks at once, however often it is read', async () => {
    const { check, calls } = manualCheck<string>();
    const state = new BackgroundCheck(check, { maxAgeMs: 10, boundMs: 5, failed: 'down' });
    for (let read = 0; read < 50; read += 1) {
      jest.setSystemTime(Date.now() + 20);
      state.current();
      state.runNow();
    }
    expect(calls.length).toBe(1);
  });

  it('reads a failed check as failed, and an answer younger than maxAgeMs asks nothing', async () => {
    const { check, calls } = manualCheck<string>();
    const state = new BackgroundCheck(check, { maxAgeMs: 1000, boundMs: 500, failed: 'down' });
    calls[0]!.reject(new Error('connection refused'));
    await flush();
    expect(state.current()).toBe('down');
    state.runNow();
    calls[1]!.resolve('up');
    await flush();
    jest.setSystemTime(Date.now() + 999);
    expect([state.current(), calls.length]).toEqual(['up', 2]);
  });

  it('starts nothing once stopped', async () => {
    const { check, calls } = manualCheck<string>();
    const state = new BackgroundCheck(check, { maxAgeMs: 1000, boundMs: 500, failed: 'down' });
    calls[0]!.resolve('up');
    await flush();
    state.stop();
    jest.setSystemTime(Date.now() + 5000);
    expect([state.current(), calls.length]).toEqual(['up', 1]);
  });
});
