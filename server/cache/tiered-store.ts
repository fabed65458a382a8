/**
 * Two tiers: the byte-bounded in-process LRU (L1) in front of Redis (L2). Reads try L1, then Redis (filling
 * L1); writes go to both and are announced so other instances drop their L1 copy. L1 is only trusted while
 * the coherence bus is subscribed: without it this instance could miss a purge and serve a purged page.
 */
import type { CacheEntry } from './entry';
import type { MemoryStore } from './memory-store';
import type { CacheStore } from './store';

export interface TieredStoreOptions {
  l1: MemoryStore;
  l2: CacheStore;
  /** Whether announcements currently reach this instance. */
  coherent: () => boolean;
  /** Announces keys whose content changed here, so other instances evict them. */
  announceEvict: (keys: string[]) => void;
}

/**
 * The entry with bytes of its own. A byte value read from Redis is a slice of the client's reply buffer, which
 * can be many times its size: kept in L1 as it is, it would hold all of that (uncounted by L1's byte bound).
 */
function ownBytes(entry: CacheEntry): CacheEntry {
  return typeof entry.value === 'string' ? entry : { ...entry, value: Buffer.from(entry.value) };
}

export class TieredStore implements CacheStore {
  readonly kind = 'redis' as const;

  constructor(private readonly options: TieredStoreOptions) {}

  get l1Bytes(): number {
    return this.options.l1.bytes;
  }

  async get(key: string): Promise<CacheEntry | null> {
    const { l1, l2 } = this.options;
    const coherent = this.options.coherent();
    if (coherent) {
      const local = await l1.get(key);
      if (local) return local;
    }
    const shared = await l2.get(key);
    if (shared) {
      if (!coherent) return shared;
      const owned = ownBytes(shared);
      await l1.set(key, owned);
      return owned;
    }
    // A load may have finished while Redis answered this miss: its entry is in L1 before Redis has it.
    return coherent ? l1.get(key) : null;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    if (this.options.coherent()) await this.options.l1.set(key, entry);
    await this.options.l2.set(key, entry);
    this.options.announceEvict([key]);
  }

  async delete(key: string): Promise<void> {
    await this.options.l1.delete(key);
    await this.options.l2.delete(key);
    this.options.announceEvict([key]);
  }

  /** Drops L1 copies (another instance changed or purged them). */
  async evictLocal(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.options.l1.delete(key);
  }

  async clearLocal(): Promise<void> {
    await this.options.l1.close();
  }

  isAvailable(): boolean {
    return this.options.l2.isAvailable();
  }

  keysMatching(glob: string): Promise<string[]> {
    return this.options.l2.keysMatching(glob);
  }

  keysWithTag(prefix: string, tag: string): Promise<string[]> {
    return this.options.l2.keysWithTag(prefix, tag);
  }

  async deleteKeys(keys: readonly string[], tags?: { prefix: string; tags: readonly string[] }): Promise<number> {
    await this.evictLocal(keys);
    return this.options.l2.deleteKeys(keys, tags);
  }

  async close(): Promise<void> {
    await this.options.l1.close();
    await this.options.l2.close();
  }
}
