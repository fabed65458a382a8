/** The embedded default store: an LRU bounded by bytes, not entries, so a few huge pages cannot exhaust memory. */
import { LRUCache } from 'lru-cache';
import type { CacheEntry } from './entry';
import { retentionMs } from './entry';
import { globToRegExp } from './keys';
import type { CacheStore, IndexedKeys, StaleDepth, StaleMark } from './store';
import { prefixOfKey, tagSetKey } from './tags';

/** JS strings are UTF-16: two bytes a code unit, plus a fixed allowance for the entry object and its key. */
function approximateBytes(key: string, entry: CacheEntry): number {
  const valueBytes = typeof entry.value === 'string' ? 2 * entry.value.length : entry.value.length;
  return 2 * key.length + valueBytes + 64 * (entry.tags.length + (entry.reads?.length ?? 0) + 1);
}

export class MemoryStore implements CacheStore {
  readonly kind = 'memory' as const;
  private readonly lru: LRUCache<string, CacheEntry>;
  /** tag set key → keys; kept in step with the LRU (evictions included) through its dispose hook. */
  private readonly tagIndex = new Map<string, Set<string>>();
  /** Entries dropped to make room (not expiries, deletes or replacements): L1 too small for what it is asked for. */
  private evicted = 0;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, CacheEntry>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => approximateBytes(key, entry),
      // Expired entries are dropped lazily on read, so the store keeps no timers.
      ttlAutopurge: false,
      dispose: (entry, key, reason) => {
        if (reason === 'evict') this.evicted += 1;
        // 'set' replaces the entry under the same key: its new tags are indexed by set() itself.
        if (reason !== 'set') this.unindex(key, entry.tags);
      },
    });
  }

  async get(key: string): Promise<CacheEntry | null> {
    return this.lru.get(key) ?? null;
  }

  getNow(key: string): CacheEntry | null {
    return this.lru.get(key) ?? null;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const size = approximateBytes(key, entry);
    if (size > this.lru.maxSize) return;
    const previous = this.lru.peek(key, { allowStale: true });
    if (previous) this.unindex(key, previous.tags);
    this.lru.set(key, entry, { ttl: retentionMs(entry) });
    if (!this.lru.has(key)) return;
    const prefix = prefixOfKey(key);
    for (const tag of entry.tags) {
      const setKey = tagSetKey(prefix, tag);
      let keys = this.tagIndex.get(setKey);
      if (!keys) this.tagIndex.set(setKey, (keys = new Set()));
      keys.add(key);
    }
  }

  /** The entry without counting it as used (the LRU order stays), for /_internal/l1. */
  peek(key: string): CacheEntry | null {
    return this.lru.peek(key) ?? null;
  }

  async delete(key: string): Promise<void> {
    this.lru.delete(key);
  }

  isAvailable(): boolean {
    return true;
  }

  async keysMatching(glob: string): Promise<string[]> {
    const pattern = globToRegExp(glob);
    return [...this.lru.keys()].filter((key) => pattern.test(key));
  }

  async keysWithTag(prefix: string, tag: string): Promise<string[]> {
    return [...(this.tagIndex.get(tagSetKey(prefix, tag)) ?? [])];
  }

  async existing(keys: readonly string[]): Promise<string[]> {
    return keys.filter((key) => this.lru.has(key));
  }

  /** Read and written with nothing run between (set runs to its end at once). */
  async markStale(key: string, now: number, loadsFrom: number, depth: StaleDepth = 'stale', withdrawn = ''): Promise<StaleMark> {
    const entry = this.lru.get(key);
    if (!entry) return 'gone';
    if (entry.since !== undefined && entry.since >= loadsFrom) return 'held';
    const back = (depth === 'expired' ? entry.ttl + entry.grace : entry.ttl) * 1000;
    const moves = now - entry.storedAt < back;
    const notes = withdrawn !== '' && !(entry.withdrawn ?? []).includes(withdrawn);
    if (!moves && !notes) return 'held';
    await this.set(key, {
      ...entry,
      storedAt: moves ? now - back : entry.storedAt,
      ...(notes ? { withdrawn: [...(entry.withdrawn ?? []), withdrawn] } : {}),
    });
    return 'marked';
  }

  /** In one go, so nothing is written between the deletes and the unindexing (a key held now stays indexed). */
  async deleteKeys(keys: readonly string[], unindex?: IndexedKeys): Promise<number> {
    let deleted = 0;
    for (const key of keys) if (this.lru.delete(key)) deleted += 1;
    for (const tag of unindex?.tags ?? []) {
      const setKey = tagSetKey(unindex!.prefix, tag);
      const indexed = this.tagIndex.get(setKey);
      for (const key of unindex!.keys) if (!this.lru.has(key)) indexed?.delete(key);
      if (indexed?.size === 0) this.tagIndex.delete(setKey);
    }
    return deleted;
  }

  /** Bytes held, for metrics. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** The most bytes it holds (L1_CACHE_MAX_MB), for metrics. */
  get maxBytes(): number {
    return this.lru.maxSize;
  }

  /** Entries evicted to make room since start, for metrics. */
  get evictions(): number {
    return this.evicted;
  }

  async close(): Promise<void> {
    this.lru.clear();
    this.tagIndex.clear();
  }

  private unindex(key: string, tags: readonly string[]): void {
    const prefix = prefixOfKey(key);
    for (const tag of tags) {
      const setKey = tagSetKey(prefix, tag);
      const keys = this.tagIndex.get(setKey);
      keys?.delete(key);
      if (keys?.size === 0) this.tagIndex.delete(setKey);
    }
  }
}
