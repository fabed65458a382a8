/**
 * JSON values of cache entries, decoded once per entry object. The in-process tier (memory-store.ts, L1 of
 * tiered-store.ts) hands back the very entry it holds on every hit, so an upstream answer every page reads (the
 * menu, the home lists) is parsed once, not on every render; an entry read from Redis is a new object each
 * time and is decoded as before. Shared between requests, a value is frozen, deeply: code that tried to change
 * it would throw instead of changing it for every later reader (coalesced loads already share theirs).
 */
import type { CacheEntry } from './entry';

export class DecodedOnce {
  private readonly values = new WeakMap<CacheEntry, unknown>();

  constructor(private readonly decode: (stored: CacheEntry['value']) => unknown) {}

  valueOf(entry: CacheEntry): unknown {
    if (this.values.has(entry)) return this.values.get(entry);
    const value = deepFreeze(this.decode(entry.value));
    this.values.set(entry, value);
    return value;
  }
}

/** Freezes a JSON value and everything in it (plain objects, arrays, primitives: what JSON.parse makes). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
  return value;
}
