/** Cache entries' JSON values decoded once per entry object, frozen so no reader can change them for the next. */
import { z } from 'zod';
import { Cache, checkedJsonCodec, jsonCodec } from '../../../server/cache/cache';
import { DecodedOnce, deepFreeze } from '../../../server/cache/decoded-once';
import type { CacheEntry } from '../../../server/cache/entry';
import { MemoryStore } from '../../../server/cache/memory-store';

const POLICY = { ttl: 60, grace: 60, staleIfError: 0 };

/** The value a read found; fails the test if it found a failure. */
function valueOf(values: DecodedOnce, entry: CacheEntry): unknown {
  const decoded = values.read(entry);
  if (!decoded.ok) throw new Error(`not decoded: ${String(decoded.error)}`);
  return decoded.value;
}

function entryOf(value: unknown): CacheEntry {
  return { value: JSON.stringify(value), storedAt: Date.now(), ttl: 60, grace: 60, staleIfError: 0, tags: [] };
}

describe('DecodedOnce', () => {
  it('decodes an entry once, however often it is read, and a new entry object again', () => {
    let decodes = 0;
    const values = new DecodedOnce((stored) => {
      decodes++;
      return jsonCodec.decode(stored);
    });
    const entry = entryOf({ lists: [{ id: 1, title: '青年' }] });
    const first = valueOf(values, entry);
    expect(valueOf(values, entry)).toBe(first);
    expect(decodes).toBe(1);
    expect(valueOf(values, { ...entry })).toEqual(first);
    expect(decodes).toBe(2);
  });

  it('hands out a value no reader can change: every level is frozen', () => {
    const value = valueOf(new DecodedOnce(jsonCodec.decode), entryOf({ lists: [{ id: 1, tags: ['b', 'a'] }], total: 1 })) as {
      lists: Array<{ id: number; tags: string[] }>;
    };
    expect(() => {
      value.lists[0]!.id = 2;
    }).toThrow(TypeError);
    expect(() => value.lists.push({ id: 3, tags: [] })).toThrow(TypeError);
    expect(() => value.lists[0]!.tags.sort()).toThrow(TypeError);
    expect(value.lists[0]!.id).toBe(1);
  });

  it('freezes primitives and null as they are', () => {
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze('文字')).toBe('文字');
    expect(deepFreeze(3)).toBe(3);
  });
});

describe('Cache over the in-process store', () => {
  it('serves every hit of an entry the same decoded value, and a reloaded entry a new one', async () => {
    const cache = new Cache(new MemoryStore(1024 * 1024));
    let loads = 0;
    const load = async () => ({ value: { menu: [{ catid: ++loads }] }, cacheable: true, tags: ['cat:1'] });
    const missed = await cache.getOrLoad('t:k', POLICY, load);
    expect(missed.state).toBe('MISS');
    const hit = await cache.getOrLoad('t:k', POLICY, load);
    const again = await cache.getOrLoad('t:k', POLICY, load);
    expect(hit.state).toBe('HIT');
    expect(again.value).toBe(hit.value);
    expect(hit.value).toEqual({ menu: [{ catid: 1 }] });
    expect(Object.isFrozen(hit.value)).toBe(true);
    await cache.store.delete('t:k');
    await cache.getOrLoad('t:k', POLICY, load);
    const reloaded = await cache.getOrLoad('t:k', POLICY, load);
    expect(reloaded.value).toEqual({ menu: [{ catid: 2 }] });
    expect(reloaded.value).not.toBe(hit.value);
  });
});

describe('a held value of another shape than the codec checks for', () => {
  const shape = z.object({ menu: z.array(z.object({ catid: z.number() })) });
  const codec = checkedJsonCodec(shape);

  it.each([
    ['a number', 42],
    ['null', null],
    ['an object missing the field', {}],
    ['a list of the wrong items', { menu: [{ catid: '1' }] }],
  ])('%s (held in memory) is a miss, loaded and stored over, reported once', async (_name, planted) => {
    const unreadable: string[] = [];
    const cache = new Cache(new MemoryStore(1024 * 1024), { onUnreadable: (key) => unreadable.push(key) });
    await cache.store.set('t:k', { ...entryOf(planted), ttl: 3600 });
    let loads = 0;
    const load = async () => ({ value: { menu: [{ catid: ++loads }] }, cacheable: true, tags: [] });
    // Two readers at once meet the same held entry: one report, one load.
    const [first, second] = await Promise.all([cache.getOrLoad('t:k', POLICY, load, codec), cache.getOrLoad('t:k', POLICY, load, codec)]);
    expect(first.state).toBe('MISS');
    expect(second.value).toEqual({ menu: [{ catid: 1 }] });
    expect(loads).toBe(1);
    expect(unreadable).toEqual(['t:k']);
    const hit = await cache.getOrLoad('t:k', POLICY, load, codec);
    expect(hit.state).toBe('HIT');
    expect(Object.isFrozen(hit.value)).toBe(true);
  });
});
