/**
 * Read-through cache with the freshness rules of DESIGN.md: fresh → serve; stale within grace → serve and
 * refresh once in the background; missing → load once, however many requests are waiting for the same key.
 * If a load fails and an old entry is still held, the old entry is served (stale-if-error).
 */
import type { CacheEntry, CachePolicy } from './entry';
import { freshnessOf } from './entry';
import type { CacheStore } from './store';

export type CacheState = 'HIT' | 'MISS' | 'STALE';

export interface Loaded<T> {
  value: T;
  /** False for anything that must not be stored: failed upstream calls, degraded renders. */
  cacheable: boolean;
  tags: string[];
}

export interface Served<T> {
  value: T;
  state: CacheState;
  tags: string[];
}

export interface Codec<T> {
  encode(value: T): string;
  decode(text: string): T;
}

export const jsonCodec: Codec<unknown> = { encode: (value) => JSON.stringify(value), decode: (text) => JSON.parse(text) };

export interface CacheEvents {
  onResult?: (key: string, state: CacheState) => void;
  onBackgroundError?: (key: string, error: unknown) => void;
}

/**
 * How long a finished load keeps answering requests for its key in this process: a request whose store read
 * raced the write, or timed out while the process was busy rendering, reuses this answer instead of calling
 * the upstream again.
 */
const RECENT_LOAD_MS = 2000;

interface Flight {
  finished: boolean;
  promise: Promise<unknown>;
}

export class Cache {
  private readonly inflight = new Map<string, Flight>();

  constructor(
    readonly store: CacheStore,
    private readonly events: CacheEvents = {},
  ) {}

  /** Number of keys being loaded right now (coalesced waiters share one). */
  get inflightCount(): number {
    return [...this.inflight.values()].filter((flight) => !flight.finished).length;
  }

  async getOrLoad<T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<Loaded<T>>,
    codec: Codec<T> = jsonCodec as Codec<T>,
  ): Promise<Served<T>> {
    const entry = await this.store.get(key);
    const freshness = entry ? freshnessOf(entry) : 'expired';
    if (entry && freshness === 'fresh') return this.served(key, entry, 'HIT', codec);
    if (entry && freshness === 'stale') {
      this.refreshInBackground(key, policy, load, codec);
      return this.served(key, entry, 'STALE', codec);
    }
    try {
      // With no entry at all, a load this process finished a moment ago is the answer (see RECENT_LOAD_MS).
      const loaded = await this.loadOnce(key, policy, load, codec, entry === null);
      this.events.onResult?.(key, 'MISS');
      return { value: loaded.value, state: 'MISS', tags: loaded.tags };
    } catch (error) {
      if (!entry) throw error;
      return this.served(key, entry, 'STALE', codec);
    }
  }

  async peek(key: string): Promise<CacheEntry | null> {
    return this.store.get(key);
  }

  async put<T>(key: string, policy: CachePolicy, loaded: Loaded<T>, codec: Codec<T> = jsonCodec as Codec<T>): Promise<void> {
    if (!loaded.cacheable) return;
    await this.store.set(key, {
      value: codec.encode(loaded.value),
      storedAt: Date.now(),
      ttl: policy.ttl,
      grace: policy.grace,
      tags: loaded.tags,
    });
  }

  private served<T>(key: string, entry: CacheEntry, state: CacheState, codec: Codec<T>): Served<T> {
    this.events.onResult?.(key, state);
    return { value: codec.decode(entry.value), state, tags: entry.tags };
  }

  /**
   * One load per key at a time; the entry is written before waiters are released, so none races past it. A
   * finished load stays shared for RECENT_LOAD_MS, but only with callers that found no entry (`reuseFinished`):
   * one that found an expired entry wants a new answer.
   */
  private loadOnce<T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<Loaded<T>>,
    codec: Codec<T>,
    reuseFinished: boolean,
  ): Promise<Loaded<T>> {
    const known = this.inflight.get(key);
    if (known && (!known.finished || reuseFinished)) return known.promise as Promise<Loaded<T>>;
    const flight: Flight = { finished: false, promise: Promise.resolve() };
    const release = (afterMs: number) => {
      flight.finished = true;
      setTimeout(() => {
        if (this.inflight.get(key) === flight) this.inflight.delete(key);
      }, afterMs).unref();
    };
    const started: Promise<Loaded<T>> = (async () => {
      try {
        const loaded = await load();
        await this.put(key, policy, loaded, codec);
        release(RECENT_LOAD_MS);
        return loaded;
      } catch (error) {
        // A failure is shared only by the requests already waiting; the next one tries again.
        release(0);
        throw error;
      }
    })();
    flight.promise = started;
    this.inflight.set(key, flight);
    return started;
  }

  private refreshInBackground<T>(key: string, policy: CachePolicy, load: () => Promise<Loaded<T>>, codec: Codec<T>): void {
    if (this.inflight.get(key)?.finished === false) return;
    this.loadOnce(key, policy, load, codec, false).catch((error: unknown) => this.events.onBackgroundError?.(key, error));
  }
}
