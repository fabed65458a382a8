/**
 * Read-through cache with the freshness rules of docs/cache.md: fresh → serve; stale within grace → serve and
 * refresh once in the background; missing → load once, however many requests are waiting for the same key.
 * Past grace an entry is reloaded; if the reload fails while the entry is within its stale-if-error window, the
 * old entry is served (stale-if-error) instead of an error.
 */
import type { z } from 'zod';
import { DecodedOnce } from './decoded-once';
import type { CacheEntry, CachePolicy, EntryMetadata, EntryValue } from './entry';
import { freshnessOf } from './entry';
import type { PageForm } from './stored-page';
import type { HeldPageEntry } from './redis-page-read';
import type { PurgeClock } from './purge-clock';
import type { KeyLock } from './redis-lock';
import type { CacheStore } from './store';

export type CacheState = 'HIT' | 'MISS' | 'STALE';

export interface Loaded<T> {
  value: T;
  /** False for anything that must not be stored: failed upstream calls, degraded renders. */
  cacheable: boolean;
  tags: string[];
  /** A page's: the data keys it was rendered from (CacheEntry.reads). */
  reads?: readonly string[];
  /** Overrides the caller's policy for this value (a 'not found' is kept briefly, not for a whole TTL). */
  policy?: CachePolicy;
}

export interface Served<T> {
  value: T;
  state: CacheState;
  tags: string[];
  /** Served past grace because its reload failed: the value is old and what is built on it must not be stored. */
  staleIfError?: boolean;
  /** When a held entry was stored (its `Age` downstream); absent on a MISS, answered as it was loaded. */
  storedAt?: number;
  /**
   * A MISS: when the load that answered it began (Date.now()). A caller that joined a load already running gets
   * what that load read from its start on: what it builds is as old as that (purge-clock.ts).
   */
  loadStartedAt?: number;
}

export interface Codec<T> {
  encode(value: T): EntryValue;
  /** Throws on a value it cannot read: a held entry that does not decode is a miss. */
  decode(stored: EntryValue): T;
  /** Decoded values are plain JSON data: decoded once per entry held in memory, frozen and shared by its readers. */
  shared?: boolean;
}

export const jsonCodec: Codec<unknown> = {
  encode: (value) => JSON.stringify(value),
  decode: (stored) => JSON.parse(typeof stored === 'string' ? stored : stored.toString('utf8')),
  shared: true,
};

/**
 * JSON of the shape its readers expect: a held value of another shape (written by hand, by a foreign client, by a
 * build whose shape differed) does not decode, so it is a miss, loaded again and stored over, never handed to a
 * page that would fail on it. Checked once per decode (once per entry object held in memory).
 */
export function checkedJsonCodec<T>(schema: z.ZodType<T, unknown>): Codec<T> {
  return { encode: (value) => JSON.stringify(value), decode: (stored) => schema.parse(jsonCodec.decode(stored)), shared: true };
}

export interface CacheEvents {
  onResult?: (key: string, state: CacheState) => void;
  onBackgroundError?: (key: string, error: unknown) => void;
  /** A held entry did not decode (not JSON, or not of the shape its readers expect): read as a miss. */
  onUnreadable?: (key: string, error: unknown) => void;
  /** A reload failed and the held entry was served past grace. */
  onStaleIfError?: (key: string, error: unknown) => void;
  /** A request waited for another's load of the same key (in this process or on another instance). */
  onCoalesced?: (key: string, where: 'process' | 'cluster') => void;
  /** A load waited this long for another instance holding the key's lock (however the wait ended). */
  onLockWaited?: (key: string, ms: number) => void;
}

/** A held entry and its decoded value. */
interface Readable<T> {
  entry: CacheEntry;
  value: T;
}

export class Cache {
  private readonly inflight = new Map<string, { loading: Promise<Loaded<unknown>>; startedAt: number }>();
  /** Writes under way (put): a purge's acknowledgement waits for them (writesSettled). */
  private readonly writing = new Set<Promise<void>>();
  /** Per shared codec: the values of the entries L1 holds, decoded once each. */
  private readonly decodedOnce = new WeakMap<Codec<unknown>, DecodedOnce>();
  /** Entries judged uncovered by the purges noted, with the purge clock's version then (unpurged). */
  private readonly uncoveredAt = new WeakMap<EntryMetadata, number>();

  constructor(
    readonly store: CacheStore,
    private readonly events: CacheEvents = {},
    /** Cross-instance coalescing (Redis); without it, loads are coalesced in this process only. */
    private readonly lock: KeyLock | null = null,
    /** The purges seen lately: what was read before one of them is not stored after it (purge-clock.ts). */
    private readonly purges: PurgeClock | null = null,
  ) {}

  /** Number of keys being loaded right now (coalesced waiters share one). */
  get inflightCount(): number {
    return this.inflight.size;
  }

  /**
   * `revalidate`: a stale entry is reloaded before answering (the held one served only if that fails), not after.
   * `waitFrom`: when the caller's waits on other instances' locks start counting (a page render's start, Date.now()):
   * all of them together end the lock's `maxWaitMs` after it, so a render of twenty keys, each held by a holder
   * that renews for ever, waits that long once, not twenty times in a row.
   * `withdraw`: what a held value is without the items a hard purge withdrew from it (CacheEntry.withdrawn); without
   * it, such a value is not used.
   */
  async getOrLoad<T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<Loaded<T>>,
    codec: Codec<T> = jsonCodec as Codec<T>,
    options: { revalidate?: boolean; waitFrom?: number; withdraw?: Withdraw<T> } = {},
  ): Promise<Served<T>> {
    const held = await this.held(key);
    const freshness = held ? freshnessOf(held) : 'gone';
    const readable = held && freshness !== 'gone' ? this.readable(key, held, codec) : null;
    const entry = readable ? withoutWithdrawn(readable, options.withdraw) : null;
    if (entry && freshness === 'fresh') return this.served(key, entry, 'HIT');
    if (entry && freshness === 'stale' && options.revalidate !== true) {
      this.refreshInBackground(key, policy, load, codec);
      return this.served(key, entry, 'STALE');
    }
    try {
      const { loaded, startedAt } = await this.loadOnce(key, policy, load, codec, options.waitFrom);
      this.events.onResult?.(key, 'MISS');
      return { value: loaded.value, state: 'MISS', tags: loaded.tags, loadStartedAt: startedAt };
    } catch (error) {
      if (!entry) throw error;
      if (freshness === 'expired') this.events.onStaleIfError?.(key, error);
      return { ...this.served(key, entry, 'STALE'), staleIfError: freshness === 'expired' };
    }
  }

  peek(key: string): Promise<CacheEntry | null> {
    return this.store.get(key);
  }

  /** A page entry in one form, where the store reads less than peek would (CacheStore.getPageForm); undefined otherwise. */
  peekPageForm(key: string, form: PageForm): Promise<HeldPageEntry | null> | undefined {
    return this.store.getPageForm?.(key, form);
  }

  /** What peek would answer, if the store can tell at once (CacheStore.getNow); undefined otherwise. */
  peekNow(key: string): CacheEntry | null | undefined {
    return this.store.getNow?.(key);
  }

  /**
   * A held page as the purges this instance has noted since its render began leave it (purge-clock.ts): gone after
   * a hard one, stale from the moment of a soft one (as the sweep marks it), else as it is. A copy the sweeps did
   * not reach (written to Redis by an instance that had not heard of the purge yet, or read into L1 from there
   * before the second sweep) is then never served as fresh. An entry found uncovered is not judged again until
   * another purge is noted.
   */
  unpurged<E extends EntryMetadata>(key: string, entry: E): E | null {
    if (entry.since === undefined || !this.purges) return entry;
    const version = this.purges.version;
    if (this.uncoveredAt.get(entry) === version) return entry;
    const cover = this.purges.coverOf(key, entry.tags, entry.since);
    if (cover === null) {
      this.uncoveredAt.set(entry, version);
      return entry;
    }
    if (!cover.soft) return null;
    return { ...entry, storedAt: Math.min(entry.storedAt, cover.at - entry.ttl * 1000) };
  }

  /**
   * `startedAt`: when the load or render began (Date.now()); what a purge made since then covers is not stored.
   * Asked again once the write is done: a purge heard while it was on its way (this instance's L1 purged and its
   * acknowledgement sent before the write reached Redis) would otherwise find nothing and leave it there.
   */
  put<T>(key: string, policy: CachePolicy, loaded: Loaded<T>, codec: Codec<T> = jsonCodec as Codec<T>, startedAt?: number): Promise<void> {
    if (!loaded.cacheable) return Promise.resolve();
    const writing = this.write(key, policy, loaded, codec, startedAt);
    this.writing.add(writing);
    return writing.finally(() => this.writing.delete(writing));
  }

  /**
   * Once every write under way now has ended (and undone itself if a purge covers it): an instance applying a
   * purge acknowledges it only then, so the purger's second sweep of Redis comes after any such write landed.
   */
  async writesSettled(): Promise<void> {
    await Promise.allSettled([...this.writing]);
  }

  private async write<T>(key: string, policy: CachePolicy, loaded: Loaded<T>, codec: Codec<T>, startedAt?: number): Promise<void> {
    const purged = () => startedAt !== undefined && this.purges?.purgedSince(key, loaded.tags, startedAt) === true;
    if (purged()) return;
    const effective = loaded.policy ?? policy;
    await this.store.set(key, {
      value: codec.encode(loaded.value),
      storedAt: Date.now(),
      ttl: effective.ttl,
      grace: effective.grace,
      staleIfError: effective.staleIfError,
      tags: loaded.tags,
      ...(loaded.reads && loaded.reads.length > 0 ? { reads: [...loaded.reads] } : {}),
      ...(startedAt === undefined ? {} : { since: startedAt }),
    });
    if (purged()) await this.store.delete(key);
  }

  /**
   * The store's entry as the purges noted since its load began leave it: stored by an instance that had not heard
   * of the purge yet (after the purger's sweep of Redis), it holds what the purge took away, and a render reading
   * it would be stored as if it were new (purge-clock.ts). After a hard purge it is missing; after a soft one
   * expired (as the sweep marks a data answer): reloaded first, served only if the reload fails. The other
   * instance's clock is trusted as far as freshness trusts it (entry.ts MAX_CLOCK_AHEAD_MS); a skew either way
   * costs a reload or keeps today's window.
   */
  private async held(key: string): Promise<CacheEntry | null> {
    const entry = await this.store.get(key);
    if (!entry || entry.since === undefined || !this.purges) return entry;
    const cover = this.purges.coverOf(key, entry.tags, entry.since);
    if (cover === null) return entry;
    const expired = { ...entry, storedAt: Math.min(entry.storedAt, cover.at - (entry.ttl + entry.grace) * 1000) };
    if (cover.soft) return expired;
    if (cover.withdrawn === null) return null;
    return { ...expired, withdrawn: [...new Set([...(entry.withdrawn ?? []), ...cover.withdrawn])] };
  }

  private served<T>(key: string, held: Readable<T>, state: CacheState): Served<T> {
    this.events.onResult?.(key, state);
    return { value: held.value, state, tags: held.entry.tags, storedAt: held.entry.storedAt };
  }

  /** The held entry with its value, or null when it does not decode (reported once per entry object). */
  private readable<T>(key: string, entry: CacheEntry, codec: Codec<T>): Readable<T> | null {
    if (!codec.shared) {
      try {
        return { entry, value: codec.decode(entry.value) };
      } catch (error) {
        this.events.onUnreadable?.(key, error);
        return null;
      }
    }
    let once = this.decodedOnce.get(codec as Codec<unknown>);
    if (!once) this.decodedOnce.set(codec as Codec<unknown>, (once = new DecodedOnce(codec.decode)));
    const decoded = once.read(entry);
    if (decoded.ok) return { entry, value: decoded.value as T };
    if (decoded.first) this.events.onUnreadable?.(key, decoded.error);
    return null;
  }

  /**
   * One load per key at a time; the entry is written before waiters are released, so none races past it. With
   * when the load began: a waiter that joined it later gets what was read from then on.
   */
  private async loadOnce<T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<Loaded<T>>,
    codec: Codec<T>,
    waitFrom?: number,
  ): Promise<{ loaded: Loaded<T>; startedAt: number }> {
    const running = this.inflight.get(key);
    if (running) {
      this.events.onCoalesced?.(key, 'process');
      return { loaded: (await running.loading) as Loaded<T>, startedAt: running.startedAt };
    }
    const startedAt = Date.now();
    const loading = (async () => {
      try {
        return await this.loadAcrossInstances(key, policy, load, codec, waitFrom);
      } finally {
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, { loading, startedAt });
    return { loaded: await loading, startedAt };
  }

  private async loadAndStore<T>(key: string, policy: CachePolicy, load: () => Promise<Loaded<T>>, codec: Codec<T>): Promise<Loaded<T>> {
    const startedAt = Date.now();
    const loaded = await load();
    await this.put(key, policy, loaded, codec, startedAt);
    return loaded;
  }

  /**
   * With a lock: the holder loads, renewing its lock while it does; others wait for its entry as long as the lock
   * is there (a live holder keeps it, however slow its load), up to the lock's `maxWaitMs` in all (counted from `waitFrom`). If the lock goes
   * (released without a storable result, or expired because its holder died), a waiter takes it and loads itself;
   * what no holder could have made in the lock's place is taken over at once (redis-lock.ts). If Redis is down,
   * this instance loads on its own (coalescing is an optimisation, never a reason to fail a reader); a command
   * that merely timed out while connected is retried for up to the lock timeout, so a slow moment of Redis or of
   * this process does not turn into a second upstream call.
   */
  private async loadAcrossInstances<T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<Loaded<T>>,
    codec: Codec<T>,
    waitFrom = Date.now(),
  ): Promise<Loaded<T>> {
    if (!this.lock) return this.loadAndStore(key, policy, load, codec);
    const lock = this.lock;
    // Until when this caller waits without seeing the lock held: pushed on each time it is seen held, never past
    // `giveUpAt`, whatever the lock's holder (or whatever Redis holds) does; counted from the caller's render, so
    // the waits of one page end together (getOrLoad's waitFrom).
    const giveUpAt = Math.min(Date.now(), waitFrom) + lock.maxWaitMs;
    const patience = { until: Date.now() + lock.timeoutMs, giveUpAt };
    let coalesced = false;
    for (;;) {
      const attempt = await this.tryLock(key, lock, Math.min(patience.until, giveUpAt));
      if (attempt === 'unlocked') return this.loadUnlessStored(key, policy, load, codec);
      if (attempt !== 'held-elsewhere') return lock.holdWhile(key, attempt, () => this.loadUnlessStored(key, policy, load, codec));
      if (!coalesced) this.events.onCoalesced?.(key, 'cluster');
      coalesced = true;
      const waitStarted = performance.now();
      const waited = await this.waitForEntry(key, lock, patience);
      this.events.onLockWaited?.(key, performance.now() - waitStarted);
      if (waited === 'unanswered') return this.loadAndStore(key, policy, load, codec);
      if (waited === 'free') continue;
      // What the holder stored; if it does not decode, this caller loads its own.
      const stored = this.readable(key, waited, codec);
      return stored ? { value: stored.value, cacheable: false, tags: waited.tags } : this.loadAndStore(key, policy, load, codec);
    }
  }

  /**
   * Double-checked: a holder may have stored the entry and released the lock since this caller missed (or since
   * a read of it timed out); then there is nothing left to load.
   */
  private async loadUnlessStored<T>(key: string, policy: CachePolicy, load: () => Promise<Loaded<T>>, codec: Codec<T>): Promise<Loaded<T>> {
    const held = await this.held(key);
    const stored = held && freshnessOf(held) === 'fresh' ? this.readable(key, held, codec) : null;
    if (stored) return { value: stored.value, cacheable: false, tags: held!.tags };
    return this.loadAndStore(key, policy, load, codec);
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

  /**
   * Polls until a fresh entry appears (returned), the lock is free ('free': try to take it), or Redis leaves the
   * lock check unanswered past `patience` or the wait reaches `patience.giveUpAt` ('unanswered'). A lock seen
   * held means a live holder renewing it: patience is a whole lock timeout again, up to `giveUpAt`. Time alone
   * (this process stalled between two polls) ends the wait only at `giveUpAt`.
   */
  private async waitForEntry(key: string, lock: KeyLock, patience: { until: number; giveUpAt: number }): Promise<CacheEntry | 'free' | 'unanswered'> {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, lock.pollMs));
      const entry = await this.held(key);
      if (entry && freshnessOf(entry) === 'fresh') return entry;
      if (Date.now() >= patience.giveUpAt) return 'unanswered';
      const held = await lock.isHeld(key).catch(() => (lock.isConnected() ? 'unknown' : false));
      if (held === true) {
        patience.until = Date.now() + lock.timeoutMs;
        continue;
      }
      // Unknown (a timed-out command) counts as held while connected, for up to the patience left.
      if (held === 'unknown') {
        if (Date.now() < patience.until) continue;
        return 'unanswered';
      }
      // The holder may have stored and released between the two reads.
      const after = await this.held(key);
      return after && freshnessOf(after) === 'fresh' ? after : 'free';
    }
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

/** A held value without the items `gone` names; null: nothing of it may be shown (the answer itself went). */
export type Withdraw<T> = (value: T, gone: ReadonlySet<string>) => T | null;

/** The held value as it may be shown now: without what a hard purge withdrew after it was stored. */
function withoutWithdrawn<T>(held: Readable<T>, withdraw: Withdraw<T> | undefined): Readable<T> | null {
  const gone = held.entry.withdrawn;
  if (gone === undefined || gone.length === 0) return held;
  const value = withdraw?.(held.value, new Set(gone)) ?? null;
  return value === null ? null : { entry: held.entry, value };
}
