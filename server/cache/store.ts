/**
 * One interface, two stores (DESIGN.md): Redis when configured, an in-process LRU otherwise. A store never
 * throws to its caller: a store that cannot answer behaves as a miss and reports itself unavailable, so the
 * site keeps serving when Redis is down.
 */
import type { CacheEntry } from './entry';

export type StoreKind = 'memory' | 'redis';

export interface CacheStore {
  readonly kind: StoreKind;
  get(key: string): Promise<CacheEntry | null>;
  set(key: string, entry: CacheEntry): Promise<void>;
  delete(key: string): Promise<void>;
  /** True when the store can currently answer (always for memory; connection state for Redis). */
  isAvailable(): boolean;
  close(): Promise<void>;
}
