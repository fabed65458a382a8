/**
 * Two tiers: the byte-bounded in-process LRU (L1) in front of Redis (L2). Reads try L1, then Redis (filling
 * L1); writes go to both and are announced so other instances drop their L1 copy.
 *
 * L1 is trusted while the coherence bus is subscribed. Without the subscription this instance could miss a
 * purge, so what it does depends on why:
 * - Redis unreachable from here: L1 keeps answering (and keeps what this instance renders) for at most
 *   `outageServeMs` after the subscription was lost. Purges are made through Redis, so while nobody reaches it
 *   none can be missed; only an instance cut off alone can miss one, and then for at most that long.
 * - Redis reachable but not (yet) subscribed, e.g. in the moment between a reconnect and the new SUBSCRIBE:
 *   L1 is bypassed and Redis answers, since Redis has every purge made meanwhile.
 * Once subscribed again the portal empties L1 (coherence.ts's onResubscribed), so nothing held across the gap
 * outlives it.
 */
import type { CacheEntry } from './entry';
import { Invalidator, type PurgeSelector } from './invalidation';
import type { MemoryStore } from './memory-store';
import type { PageForm } from './precompressed-page';
import type { HeldPageEntry } from './redis-page-read';
import type { CacheStore } from './store';

export interface TieredStoreOptions {
  l1: MemoryStore;
  l2: CacheStore;
  /** Date.now() since when announcements have not reached this instance; null while they do. */
  unsubscribedSince: () => number | null;
  /** How long L1 keeps answering without announcements while Redis is unreachable (0: not at all). */
  outageServeMs: number;
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

  /** The L1 store itself (bytes, capacity, evictions), for metrics. */
  get l1(): MemoryStore {
    return this.options.l1;
  }

  /** L1's copy of a key, whether or not L1 is trusted now (for /_internal/l1). */
  peekL1(key: string): CacheEntry | null {
    return this.options.l1.peek(key);
  }

  /** Whether L1 may answer and be written now (see the comment at the top). */
  trustsL1(): boolean {
    const since = this.options.unsubscribedSince();
    if (since === null) return true;
    if (this.options.l2.isAvailable()) return false;
    return Date.now() - since < this.options.outageServeMs;
  }

  /** L1 answering without announcements (Redis unreachable): what it serves cannot be checked against purges. */
  servingUnverified(): boolean {
    return this.options.unsubscribedSince() !== null && this.trustsL1();
  }

  async get(key: string): Promise<CacheEntry | null> {
    const { l1, l2 } = this.options;
    const coherent = this.trustsL1();
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

  /** L1's entry when L1 may answer and holds the key; anything else is Redis's to answer (undefined). */
  getNow(key: string): CacheEntry | undefined {
    if (!this.trustsL1()) return undefined;
    return this.options.l1.getNow(key) ?? undefined;
  }

  /** Redis's when L1 may not answer; otherwise a whole read (get), which fills L1 for the hits after it. */
  getPageForm(key: string, form: PageForm): Promise<HeldPageEntry | null> | undefined {
    return this.trustsL1() ? undefined : this.options.l2.getPageForm?.(key, form);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    if (this.trustsL1()) await this.options.l1.set(key, entry);
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

  /** Drops the L1 copies a purge's selectors cover, whether or not Redis still holds them; resolves how many. */
  async purgeLocal(selectors: readonly PurgeSelector[], prefix: string): Promise<number> {
    const invalidator = new Invalidator(this.options.l1, { prefix, buildId: '*' });
    let dropped = 0;
    for (const selector of selectors) dropped += (await invalidator.purge(selector)).deleted;
    return dropped;
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
