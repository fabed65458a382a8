/**
 * The multi-key commands a purge runs, on a real Redis: which keys exist (EXISTS, matched to each key, never a
 * read of the values), and taking keys out of a tag's index without losing one written meanwhile.
 */
import { existingKeys, unindexGone } from '../../../server/redis/commands';
import { describeWithRedis } from '../../support/requirements';
import { suiteRedis } from '../cache/redis-helpers';

describeWithRedis()('purge commands', () => {
  const suite = suiteRedis();
  const { prefix } = suite;

  it('answers which keys exist, in the order asked, for hundreds of keys', async () => {
    const keys = Array.from({ length: 600 }, (_, index) => `${prefix}:page:${index}`);
    const held = keys.filter((_, index) => index % 3 === 1);
    await Promise.all(held.map((key) => suite.client.set(key, 'x', 'PX', 60_000)));
    expect(await existingKeys(suite.client, [...keys].reverse())).toEqual([...held].reverse());
    expect(await existingKeys(suite.client, [])).toEqual([]);
  });

  it('takes out of an index the keys that are gone and keeps, with its expiry, one written again meanwhile', async () => {
    const setKey = `${prefix}:tag:article:1`;
    const gone = `${prefix}:page:gone`;
    const rewritten = `${prefix}:page:rewritten`;
    const untouched = `${prefix}:page:untouched`;
    await suite.client.sadd(setKey, gone, rewritten, untouched);
    await suite.client.set(rewritten, 'new', 'PX', 120_000);
    await suite.client.set(untouched, 'held', 'PX', 60_000);
    // The purge read gone and rewritten from the index and deleted them; rewritten was written again since.
    await unindexGone(suite.client, setKey, [gone, rewritten]);
    expect((await suite.client.smembers(setKey)).sort()).toEqual([rewritten, untouched].sort());
    expect(await suite.client.pttl(setKey)).toBeGreaterThan(60_000);
  });

  it('keeps an index emptied by the removal when a key it named was written again', async () => {
    const setKey = `${prefix}:tag:article:2`;
    const rewritten = `${prefix}:page:again`;
    await suite.client.sadd(setKey, rewritten);
    await suite.client.set(rewritten, 'new', 'PX', 30_000);
    await unindexGone(suite.client, setKey, [rewritten]);
    expect(await suite.client.smembers(setKey)).toEqual([rewritten]);
    const ttl = await suite.client.pttl(setKey);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });
});
