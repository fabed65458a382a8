/**
 * Read-through cache with the freshness rules of DESIGN.md: fresh → serve; stale within grace → serve and
 * refresh once in the background; missing → load once, however many requests are waiting for the same key.
 * Past grace an entry is reloaded; if the reload fails while the entry is within its stale-if-error window, the
 * old entry is served (stale-if-error) instead of an error.
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
  /** Served past grace because its reload failed: the value is old and what is built on it must not be stored. */
  staleIfError?: boolean;
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

export class Cache {
  private readonly inflight = new Map<string, Promise<Loaded<unknown>>>();

  constructor(
    readonly store: CacheStore,
    private readonly events: CacheEvents = {},
  ) {}

  /** Number of keys being loaded right now (coalesced waiters share one). */
  get inflightCount(): number {
    return this.inflight.size;
  }

  async getOrLoad<T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<Loaded<T>>,
    codec: Codec<T> = jsonCodec as Codec<T>,
  ): Promise<Served<T>> {
    const held = await this.store.get(key);
    const freshness = held ? freshnessOf(held) : 'gone';
    const entry = freshness === 'gone' ? null : held;
    if (entry && freshness === 'fresh') return this.served(key, entry, 'HIT', codec);
    if (entry && freshness === 'stale') {
      this.refreshInBackground(key, policy, load, codec);
      return this.served(key, entry, 'STALE', codec);
    }
    try {
      const loaded = await this.loadOnce(key, policy, load, codec);
      this.events.onResult?.(key, 'MISS');
      return { value: loaded.value, state: 'MISS', tags: loaded.tags };
    } catch (error) {
      if (!entry) throw error;
      return { ...this.served(key, entry, 'STALE', codec), staleIfError: freshness === 'expired' };
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
      staleIfError: policy.staleIfError,
      tags: loaded.tags,
    });
  }

  private served<T>(key: string, entry: CacheEntry, state: CacheState, codec: Codec<T>): Served<T> {
    this.events.onResult?.(key, state);
    return { value: codec.decode(entry.value), state, tags: entry.tags };
  }

  /** One load per key at a time; the entry is written before waiters are released, so none races past it. */
  private loadOnce<T>(key: string, policy: CachePolicy, load: () => Promise<Loaded<T>>, codec: Codec<T>): Promise<Loaded<T>> {
    const running = this.inflight.get(key);
    if (running) return running as Promise<Loaded<T>>;
    const started = (async () => {
      try {
        const loaded = await load();
        await this.put(key, policy, loaded, codec);
        return loaded;
      } finally {
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, started);
    return started;
  }

  private refreshInBackground<T>(key: string, policy: CachePolicy, load: () => Promise<Loaded<T>>, codec: Codec<T>): void {
    if (this.inflight.has(key)) return;
    this.loadOnce(key, policy, load, codec).catch((error: unknown) => this.events.onBackgroundError?.(key, error));
  }
}
