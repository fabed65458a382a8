/**
 * Read-through cache with the freshness rules of DESIGN.md: fresh → serve; stale within grace → serve and
 * refresh once in the background; missing → load once, however many requests are waiting for the same key.
 * Past grace an entry is reloaded; if the reload fails while the entry is within its stale-if-error window, the
 * old entry is served (stale-if-error) instead of an error.
 */
import type { CacheEntry, CachePolicy, EntryValue } from './entry';
import { freshnessOf } from './entry';
import type { KeyLock } from './redis-lock';
import type { CacheStore } from './store';

export type CacheState = 'HIT' | 'MISS' | 'STALE';

export interface Loaded<T> {
  value: T;
  /** False for anything that must not be stored: failed upstream calls, degraded renders. */
  cacheable: boolean;
  tags: string[];
  /** Overrides the caller's policy for this value (a 'not found' is kept briefly, not for a whole TTL). */
  policy?: CachePolicy;
}

export interface Served<T> {
  value: T;
  state: CacheState;
  tags: string[];
  /** Served past grace because its reload failed: the value is old and what is built on it must not be stored. */
  staleIfError?: boolean;
}

export interface Codec<T> {
  encode(value: T): EntryValue;
  /** Throws on a value it cannot read. */
  decode(stored: EntryValue): T;
}

export const jsonCodec: Codec<unknown> = {
  encode: (value) => JSON.stringify(value),
  decode: (stored) => JSON.parse(typeof stored === 'string' ? stored : stored.toString('utf8')),
};

export interface CacheEvents {
  onResult?: (key: string, state: CacheState) => void;
  onBackgroundError?: (key: string, error: unknown) => void;
  /** A reload failed and the held entry was served past grace. */
  onStaleIfError?: (key: string, error: unknown) => void;
  /** A request waited for another's load of the same key (in this process or on another instance). */
  onCoalesced?: (key: string, where: 'process' | 'cluster') => void;
}

export class Cache {
  private readonly inflight = new Map<string, Promise<Loaded<unknown>>>();

  constructor(
    readonly store: CacheStore,
    private readonly events: CacheEvents = {},
    /** Cross-instance coalescing (Redis); without it, loads are coalesced in this process only. */
    private readonly lock: KeyLock | null = null,
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
      if (freshness === 'expired') this.events.onStaleIfError?.(key, error);
      return { ...this.served(key, entry, 'STALE', codec), staleIfError: freshness === 'expired' };
    }
  }

  async peek(key: string): Promise<CacheEntry | null> {
    return this.store.get(key);
  }

  async put<T>(key: string, policy: CachePolicy, loaded: Loaded<T>, codec: Codec<T> = jsonCodec as Codec<T>): Promise<void> {
    if (!loaded.cacheable) return;
    const effective = loaded.policy ?? policy;
    await this.store.set(key, {
      value: codec.encode(loaded.value),
      storedAt: Date.now(),
      ttl: effective.ttl,
      grace: effective.grace,
      staleIfError: effective.staleIfError,
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
    if (running) {
      this.events.onCoalesced?.(key, 'process');
      return running as Promise<Loaded<T>>;
    }
    const started = (async () => {
      try {
        return await this.loadAcrossInstances(key, policy, load, codec);
      } finally {
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, started);
    return started;
  }

  private async loadAndStore<T>(key: string, policy: CachePolicy, load: () => Promise<Loaded<T>>, codec: Codec<T>): Promise<Loaded<T>> {
    const loaded = await load();
    await this.put(key, policy, loaded, codec);
    return loaded;
  }

  /**
   * With a lock: the holder loads; others wait for its entry. If the holder's lock goes (released without a
   * storable result, or timed out because it died), a waiter takes the lock and loads itself. If Redis is down,
   * this instance loads on its own (coalescing is an optimisation, never a reason to fail a reader); a command
   * that merely timed out while connected is retried until the lock timeout, so a slow moment of Redis or of
   * this process does not turn into a second upstream call.
   */
  private async loadAcrossInstances<T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<Loaded<T>>,
    codec: Codec<T>,
  ): Promise<Loaded<T>> {
    if (!this.lock) return this.loadAndStore(key, policy, load, codec);
    const lock = this.lock;
    const deadline = Date.now() + lock.timeoutMs;
    let waited = false;
    for (;;) {
      const attempt = await this.tryLock(key, lock, deadline);
      if (attempt !== 'held-elsewhere') {
        try {
          // Double-checked: a holder may have stored the entry and released the lock since this caller missed
          // (or since a read of it timed out); then there is nothing left to load.
          const stored = await this.store.get(key);
          if (stored && freshnessOf(stored) === 'fresh') return { value: codec.decode(stored.value), cacheable: false, tags: stored.tags };
          return await this.loadAndStore(key, policy, load, codec);
        } finally {
          if (attempt !== 'unlocked') await lock.release(key, attempt).catch(() => undefined);
        }
      }
      if (!waited) this.events.onCoalesced?.(key, 'cluster');
      waited = true;
      const entry = await this.waitForEntry(key, lock, deadline);
      if (entry) return { value: codec.decode(entry.value), cacheable: false, tags: entry.tags };
      if (Date.now() >= deadline) return this.loadAndStore(key, policy, load, codec);
    }
  }

  /** A token; 'held-elsewhere'; or 'unlocked' when Redis is down or stayed unanswering until the deadline. */
  private async tryLock(key: string, lock: KeyLock, deadline: number): Promise<string | 'held-elsewhere' | 'unlocked'> {
    for (;;) {
      try {
        return (await lock.tryAcquire(key)) ?? 'held-elsewhere';
      } catch {
        if (!lock.isConnected() || Date.now() >= deadline) return 'unlocked';
        await new Promise((resolve) => setTimeout(resolve, lock.pollMs));
      }
    }
  }

  /** Polls until a fresh entry appears (returned), the lock is free (null: try again), or the deadline. */
  private async waitForEntry(key: string, lock: KeyLock, deadline: number): Promise<CacheEntry | null> {
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, lock.pollMs));
      const entry = await this.store.get(key);
      if (entry && freshnessOf(entry) === 'fresh') return entry;
      // Unknown (a timed-out command) counts as held while connected: keep waiting rather than load twice.
      const held = await lock.isHeld(key).catch(() => lock.isConnected());
      if (!held) {
        // The holder may have stored and released between the two reads.
        const after = await this.store.get(key);
        return after && freshnessOf(after) === 'fresh' ? after : null;
      }
    }
    return null;
  }

  /** One refresh per key across all instances: if another instance holds the key's lock, it is refreshing it. */
  private refreshInBackground<T>(key: string, policy: CachePolicy, load: () => Promise<Loaded<T>>, codec: Codec<T>): void {
    if (this.inflight.has(key)) return;
    const refresh = async () => {
      if (!this.lock) return this.loadOnce(key, policy, load, codec);
      if (await this.lock.isHeld(key).catch(() => false)) return undefined;
      return this.loadOnce(key, policy, load, codec);
    };
    refresh().catch((error: unknown) => this.events.onBackgroundError?.(key, error));
  }
}
