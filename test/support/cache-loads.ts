/** Waiting on a Cache from a test that sets the system time itself (jest's modern fake timers). */
import type { Cache } from '../../server/cache/cache';

/** Until the cache has a load under way (it first looks in its store, a few promise turns). */
export async function untilLoading(cache: Cache): Promise<void> {
  for (let turn = 0; cache.inflightCount === 0; turn += 1) {
    if (turn > 1000) throw new Error('no load began');
    await Promise.resolve();
  }
}
