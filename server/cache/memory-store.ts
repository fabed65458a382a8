/** The embedded default store: an LRU bounded by bytes, not entries, so a few huge pages cannot exhaust memory. */
import { LRUCache } from 'lru-cache';
import type { CacheEntry } from './entry';
import { retentionMs } from './entry';
import type { CacheStore } from './store';

/** JS strings are UTF-16: two bytes a code unit, plus a fixed allowance for the entry object and its key. */
function approximateBytes(key: string, entry: CacheEntry): number {
  return 2 * (key.length + entry.value.length) + 64 * (entry.tags.length + 1);
}

export class MemoryStore implements CacheStore {
  readonly kind = 'memory' as const;
  private readonly lru: LRUCache<string, CacheEntry>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, CacheEntry>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => approximateBytes(key, entry),
      // Expired entries are dropped lazily on read, so the store keeps no timers.
      ttlAutopurge: false,
    });
  }

  async get(key: string): Promise<CacheEntry | null> {
    return this.lru.get(key) ?? null;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const size = approximateBytes(key, entry);
    if (size > this.lru.maxSize) return;
    this.lru.set(key, entry, { ttl: retentionMs(entry) });
  }

  async delete(key: string): Promise<void> {
    this.lru.delete(key);
  }

  isAvailable(): boolean {
    return true;
  }

  /** Bytes held, for metrics. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  async close(): Promise<void> {
    this.lru.clear();
  }
}
