/**
 * One interface, two stores (docs/architecture.md): Redis when configured, an in-process LRU otherwise. Reads and writes
 * never throw to their caller: a store that cannot answer behaves as a miss and reports itself unavailable, so
 * the site keeps serving when Redis is down. The operator side (key listing, tag lookup, bulk delete) does
 * throw, because a purge that silently did nothing would be worse than one that says it failed.
 */
import type { CacheEntry } from './entry';
import type { PageForm } from './stored-page';
import type { HeldPageEntry } from './redis-page-read';

export type StoreKind = 'memory' | 'redis';

/** What a soft purge's mark did to an entry (CacheStore.markStale). */
export type StaleMark = 'marked' | 'held' | 'gone';

/**
 * How far a soft purge moves an entry back: a page to 'stale' (served while one re-render runs), a data answer to
 * 'expired' (reloaded first, served only when the reload fails: stale-if-error), so nothing renders from it while
 * the CMS answers and a page can still be built from it while the CMS is down.
 */
export type StaleDepth = 'stale' | 'expired';

export interface CacheStore {
  readonly kind: StoreKind;
  get(key: string): Promise<CacheEntry | null>;
  /**
   * What get would answer, when the store can tell without waiting (an in-process tier holding the key, or
   * holding nothing with nothing behind it); undefined when only get can tell. Spares a cached hit the promises.
   */
  getNow?(key: string): CacheEntry | null | undefined;
  /**
   * A page entry with only the bytes of one form (redis-page-read.ts), where this store reads less than the
   * whole entry for it; undefined where it would read the whole entry anyway (an in-process tier, or L1 in front,
   * which keeps whole pages). Like get, never rejects.
   */
  getPageForm?(key: string, form: PageForm): Promise<HeldPageEntry | null> | undefined;
  /** Stores the entry and records its key under each of its tags. */
  set(key: string, entry: CacheEntry): Promise<void>;
  /**
   * Marks the entry at `key` stale from `now` (its storedAt moved back by its TTL; with `depth` 'expired', by its
   * TTL and grace) and, with `withdrawn`, notes that tag in its `withdrawn` (an item a hard purge took away),
   * read and written in one step: a copy a concurrent purge deleted is not brought back. 'held' (left as it is):
   * that far gone and noted already, or loaded from a start at or after `loadsFrom` (what the purge is for is in
   * it). Throws when the store cannot answer.
   */
  markStale(key: string, now: number, loadsFrom: number, depth?: StaleDepth, withdrawn?: string): Promise<StaleMark>;
  delete(key: string): Promise<void>;
  /** True when the store can currently answer (always for memory; connection state for Redis). */
  isAvailable(): boolean;
  close(): Promise<void>;

  /** Keys matching a glob (Redis MATCH syntax). Throws when the store cannot answer. */
  keysMatching(glob: string): Promise<string[]>;
  /** Keys recorded under a tag for this prefix (some may have expired since). Throws when the store cannot answer. */
  keysWithTag(prefix: string, tag: string): Promise<string[]>;
  /** Those of `keys` the store holds now, without reading them (an index names keys that have since expired). Throws when the store cannot answer. */
  existing(keys: readonly string[]): Promise<string[]>;
  /**
   * Deletes the keys and, with `unindex`, takes its `keys` (what a purge read from the index) out of those tags'
   * index sets, except any written since: not the whole set, which would lose them (IndexedKeys). Resolves how
   * many entries existed. Throws on failure.
   */
  deleteKeys(keys: readonly string[], unindex?: IndexedKeys): Promise<number>;
}

/** Keys a purge read from the index sets of `tags` (keysWithTag), to be taken out of them once deleted. */
export interface IndexedKeys {
  prefix: string;
  tags: readonly string[];
  keys: readonly string[];
}
