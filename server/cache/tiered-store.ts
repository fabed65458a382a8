/**
 * Two tiers: the byte-bounded in-process LRU (L1) in front of Redis (L2). Reads try L1, then Redis (filling
 * L1); writes go to both and are announced so other instances drop their L1 copy. L1 is trusted while the
 * coherence bus is subscribed; without it, its `mode` (in /readyz and portal_cache_mode) says how L1 is used:
 * 'outage' within the outage window (Redis unreachable), 'outage-short-ttl' past it (short TTLs, each entry's
 * restart at its key's own moment, `slotOf`, so they do not all expire at once), 'bypass' while Redis answers but the
 * subscription is not back. Why each, and the catch-up that follows: docs/cache.md "Redis down".
 */
import type { PurgeClock } from './purge-clock';
import type { CacheEntry } from './entry';
import { Invalidator, type PurgeSelector } from './invalidation';
import type { MemoryStore } from './memory-store';
import type { LocalPurge } from './purges';
import type { PageForm } from './stored-page';
import type { HeldPageEntry } from './redis-page-read';
import type { CacheStore, IndexedKeys, StaleDepth, StaleMark } from './store';

export interface OutagePolicy {
  /** Seconds after the subscription was lost during which L1 answers as usual (0: short TTLs at once). */
  window: number;
  /** Past the window: seconds an entry counts fresh, and as many in grace. */
  ttl: number;
}

/** How L1 is used now (see the comment at the top). */
export type CacheMode = 'coherent' | 'bypass' | 'outage' | 'outage-short-ttl';
export const CACHE_MODES: readonly CacheMode[] = ['coherent', 'bypass', 'outage', 'outage-short-ttl'];

export interface TieredStoreOptions {
  l1: MemoryStore;
  l2: CacheStore;
  /** Date.now() since when announcements have not reached this instance; null while they do. */
  unsubscribedSince: () => number | null;
  /** The outage policy in force (runtime-policy.ts): how long L1 answers as usual, then the TTL it answers with. */
  outage: () => OutagePolicy;
  /** Announces keys whose content changed here, so other instances evict them. */
  announceEvict: (keys: string[]) => void;
  /** The purges this instance has noted (purge-clock.ts): a Redis read begun before one that covers it fills no L1. */
  purges?: Pick<PurgeClock, 'purgedSince'>;
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

  /** Each held entry's short-TTL form, made once per entry object (decoded-once.ts decodes once per object). */
  private readonly shortened = new WeakMap<CacheEntry, CacheEntry>();

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

  /** How L1 is used now (see the comment at the top). */
  mode(now: number = Date.now()): CacheMode {
    const since = this.options.unsubscribedSince();
    if (since === null) return 'coherent';
    if (this.options.l2.isAvailable()) return 'bypass';
    return now - since < this.options.outage().window * 1000 ? 'outage' : 'outage-short-ttl';
  }

  /** Whether L1 may answer and be written now. */
  trustsL1(): boolean {
    return this.mode() !== 'bypass';
  }

  /** L1 answering without announcements (Redis unreachable): what it serves cannot be checked against purges. */
  servingUnverified(): boolean {
    const mode = this.mode();
    return mode === 'outage' || mode === 'outage-short-ttl';
  }

  /** When the outage window ends (Date.now() terms), or null while there is no outage. */
  private windowEnd(): number | null {
    const since = this.options.unsubscribedSince();
    return since === null ? null : since + this.options.outage().window * 1000;
  }

  /**
   * The entry as L1 may serve it now: past the outage window, fresh until min(its own end of freshness, restart +
   * TTL) and served stale until min(its own end of grace, restart + 2 × TTL), where restart is the key's own
   * moment (slotOf): restartOf(key) for an entry stored before it, else the last of the moments a whole TTL apart
   * from it at or before the entry was stored. So held entries go stale spread over the TTL after the window's
   * end instead of all in its last second, and entries stored together past it (the data a render loaded, the
   * pages an instance without them rendered as readers came) go stale each at its key's moment, not all again
   * one TTL later. The moments stay whole seconds (they are sent as s-maxage and stale-while-revalidate) and the
   * storedAt true (Age is honest).
   */
  private served(key: string, entry: CacheEntry, mode: CacheMode): CacheEntry {
    if (mode !== 'outage-short-ttl') return entry;
    const { ttl } = this.options.outage();
    const end = this.windowEnd() ?? entry.storedAt;
    const credit = creditOf(entry.storedAt, slotOf(key, end, ttl, entry.storedAt), ttl);
    const fresh = Math.min(entry.ttl, credit + ttl);
    const grace = Math.min(entry.ttl + entry.grace, credit + 2 * ttl) - fresh;
    if (entry.ttl === fresh && entry.grace === grace) return entry;
    let short = this.shortened.get(entry);
    // Made once per entry object and window (decoded-once.ts decodes once per object).
    if (!short || short.ttl !== fresh || short.grace !== grace) {
      short = { ...entry, ttl: fresh, grace };
      this.shortened.set(entry, short);
    }
    return short;
  }

  async get(key: string): Promise<CacheEntry | null> {
    const { l1, l2 } = this.options;
    const mode = this.mode();
    const coherent = mode !== 'bypass';
    if (coherent) {
      const local = await l1.get(key);
      if (local) return this.served(key, local, mode);
    }
    const readAt = Date.now();
    const shared = await l2.get(key);
    if (shared) {
      if (!coherent) return shared;
      // Read before this instance purged its L1 of it: the copy the purge was for. This read began before the
      // purge and may answer with it, but L1 keeps nothing, or it would serve it till its TTL.
      if (this.options.purges?.purgedSince(key, shared.tags, readAt)) return shared;
      const owned = ownBytes(shared);
      await l1.set(key, owned);
      return owned;
    }
    // A load may have finished while Redis answered this miss: its entry is in L1 before Redis has it.
    const loaded = coherent ? await l1.get(key) : null;
    return loaded ? this.served(key, loaded, mode) : null;
  }

  /** L1's entry when L1 may answer and holds the key; anything else is Redis's to answer (undefined). */
  getNow(key: string): CacheEntry | undefined {
    const mode = this.mode();
    if (mode === 'bypass') return undefined;
    const local = this.options.l1.getNow(key);
    return local ? this.served(key, local, mode) : undefined;
  }

  /** Redis's when L1 may not answer; otherwise a whole read (get), which fills L1 for the hits after it. */
  getPageForm(key: string, form: PageForm): Promise<HeldPageEntry | null> | undefined {
    return this.trustsL1() ? undefined : this.options.l2.getPageForm?.(key, form);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const mode = this.mode();
    // Past the outage window the short form is what L1 keeps: it is served as it is, and expires as it says.
    if (mode !== 'bypass') await this.options.l1.set(key, this.served(key, entry, mode));
    await this.options.l2.set(key, entry);
    this.options.announceEvict([key]);
  }

  /**
   * Redis's mark; L1's copy is then not what Redis holds (marked, or gone) and goes, so the next read takes
   * Redis's. Other instances drop theirs when they hear the purge.
   */
  async markStale(key: string, now: number, loadsFrom: number, depth?: StaleDepth, withdrawn?: string): Promise<StaleMark> {
    const outcome = await this.options.l2.markStale(key, now, loadsFrom, depth, withdrawn);
    await this.options.l1.delete(key);
    return outcome;
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

  /** Drops the L1 copies a purge's selectors cover, whether or not Redis still holds them; resolves which. */
  purgeLocal(selectors: readonly PurgeSelector[], space: { prefix: string; buildId: string }): Promise<LocalPurge> {
    return purgeInProcess(this.options.l1, selectors, space);
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

  /** Redis's: what a purge deletes there (L1 is purged apart, purgeLocal). */
  existing(keys: readonly string[]): Promise<string[]> {
    return this.options.l2.existing(keys);
  }

  async deleteKeys(keys: readonly string[], unindex?: IndexedKeys): Promise<number> {
    await this.evictLocal(keys);
    return this.options.l2.deleteKeys(keys, unindex);
  }

  async close(): Promise<void> {
    await this.options.l1.close();
    await this.options.l2.close();
  }
}

/**
 * Where an entry held across the outage window's end starts its short TTL: a whole second within the `ttl`
 * seconds before `windowEnd`, the same for the key in every instance and every read (FNV-1a of the key), spread evenly
 * over keys, so held entries go stale one by one over the TTL after the window instead of in one second.
 */
export function restartOf(key: string, windowEnd: number, ttl: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  // Whole seconds before the end, at most ttl - 1: with served's whole-second credit, each restarted entry stays
  // fresh past the window's end and is past grace within 2 × ttl of it.
  return windowEnd - Math.floor(((hash >>> 0) / 0x1_0000_0000) * ttl) * 1000;
}

/**
 * The key's restart moment for an entry stored at `storedAt`: restartOf(key) if that is later, else the last
 * moment at or before `storedAt` that is a whole number of TTLs after it. Every instance and read finds the same
 * moments for a key, so each key's entries go stale at its own moments, one TTL apart.
 */
export function slotOf(key: string, windowEnd: number, ttl: number, storedAt: number): number {
  const first = restartOf(key, windowEnd, ttl);
  if (storedAt <= first) return first;
  return first + Math.floor((storedAt - first) / (ttl * 1000)) * ttl * 1000;
}

/**
 * Whole seconds from `storedAt` to `restart` (negative for a restart before it). An entry stored less than a
 * second before its key's next moment counts from that one instead: stored stale, it would be rendered again at once.
 */
function creditOf(storedAt: number, restart: number, ttl: number): number {
  const credit = Math.floor((restart - storedAt) / 1000);
  return credit + ttl < 1 ? credit + ttl : credit;
}

/** A hard purge of an in-process store (an instance's L1) by each selector; resolves what it dropped. */
export async function purgeInProcess(l1: MemoryStore, selectors: readonly PurgeSelector[], space: { prefix: string; buildId: string }): Promise<LocalPurge> {
  const invalidator = new Invalidator(l1, space);
  const dropped: LocalPurge = { entries: 0, keys: [] };
  for (const selector of selectors) {
    const result = await invalidator.purge(selector);
    dropped.entries += result.deleted;
    dropped.keys.push(...result.keys);
  }
  return dropped;
}
