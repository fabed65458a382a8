/**
 * JSON values of cache entries, decoded (and checked against the shape their readers expect) once per entry
 * object. The in-process tier (memory-store.ts, L1 of tiered-store.ts) hands back the very entry it holds on
 * every hit, so an upstream answer every page reads (the menu, the home lists) is parsed once, not on every
 * render; an entry read from Redis is a new object each time and is decoded as before. Shared between requests,
 * a value is frozen, deeply: code that tried to change it would throw instead of changing it for every later
 * reader (coalesced loads already share theirs).
 */
import type { CacheEntry } from './entry';

/** A held entry's value, or why it cannot be read; `first` is true for the one read that found it out. */
export type Decoded = { ok: true; value: unknown } | { ok: false; error: unknown; first: boolean };

export class DecodedOnce {
  private readonly values = new WeakMap<CacheEntry, Decoded>();

  /** `decode` throws on a value it cannot read (not JSON, or not of the shape its readers expect). */
  constructor(private readonly decode: (stored: CacheEntry['value']) => unknown) {}

  /** The entry's value, or its failure: either is worked out once per entry object. */
  read(entry: CacheEntry): Decoded {
    const known = this.values.get(entry);
    if (known) return known.ok ? known : { ...known, first: false };
    let decoded: Decoded;
    try {
      decoded = { ok: true, value: deepFreeze(this.decode(entry.value)) };
    } catch (error) {
      decoded = { ok: false, error, first: true };
    }
    this.values.set(entry, decoded);
    return decoded;
  }
}

/** Freezes a JSON value and everything in it (plain objects, arrays, primitives: what JSON.parse makes). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
  return value;
}
