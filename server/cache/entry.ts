/** What every cache entry knows about itself (docs/cache.md), and how fresh that makes it. */
export interface CachePolicy {
  /** Seconds the entry is served as fresh. */
  ttl: number;
  /** Seconds after ttl during which it is still served, while one refresh runs in the background. */
  grace: number;
  /**
   * Seconds after ttl + grace during which the entry is kept, and served only when a reload fails
   * (stale-if-error): a CMS outage shows readers yesterday's page rather than an error.
   */
  staleIfError: number;
}

/** Text (upstream answers, as JSON) or bytes (pages, kept in the form they are served from). */
export type EntryValue = string | Buffer;

export interface CacheEntry {
  value: EntryValue;
  /** Epoch milliseconds. */
  storedAt: number;
  ttl: number;
  grace: number;
  /** Absent on entries written before stale-if-error existed: read as 0. */
  staleIfError?: number;
  /** What the entry depends on (article, category, site, route kind), for purges and Surrogate-Key. */
  tags: string[];
  /**
   * A page's: the keys of the data answers it was rendered from, so a purge of its URL drops them too and the
   * next render reads the CMS (invalidation.ts). Absent on data entries and on pages that read nothing.
   */
  reads?: string[];
  /**
   * When the load that built it began (epoch ms, the loading instance's clock): a purge noted after that covers
   * it may have come before it was stored, so a data answer is then read as missing (cache.ts). Absent on
   * entries stored by a caller that could not say.
   */
  since?: number;
  /**
   * A data answer's: items a hard purge took away after it was stored (`article:33727`), kept with it so a render
   * that must fall back on it while the CMS fails shows the rest without them (server/cache/invalidation.ts).
   */
  withdrawn?: string[];
}

/** An entry without its value: what its frame in Redis says (entry-codec.ts), what freshness is read from. */
export type EntryMetadata = Omit<CacheEntry, 'value'>;

/**
 * fresh: serve. stale: serve and refresh in the background. expired: reload; serve only if the reload fails.
 * gone: past every window, as if missing (stores drop such entries on their own).
 */
export type Freshness = 'fresh' | 'stale' | 'expired' | 'gone';

export function freshnessOf(entry: EntryMetadata, now: number = Date.now()): Freshness {
  const ageSeconds = (now - entry.storedAt) / 1000;
  if (ageSeconds < entry.ttl) return 'fresh';
  if (ageSeconds < entry.ttl + entry.grace) return 'stale';
  if (ageSeconds < entry.ttl + entry.grace + (entry.staleIfError ?? 0)) return 'expired';
  return 'gone';
}

export function ageSeconds(entry: EntryMetadata, now: number = Date.now()): number {
  return Math.max(0, Math.floor((now - entry.storedAt) / 1000));
}

/** How long a store keeps an entry: past grace it can only be served if the upstream is down. */
export function retentionMs(entry: Pick<CacheEntry, 'ttl' | 'grace' | 'staleIfError'>): number {
  return (entry.ttl + entry.grace + (entry.staleIfError ?? 0)) * 1000;
}

/** The longest window any policy gives (runtime-policy.ts: stale-if-error up to 30 days; ttl and grace less). */
const MAX_WINDOW_SECONDS = 30 * 86_400;
/** How far ahead of this instance's clock another instance's may run and its entries still be read. */
const MAX_CLOCK_AHEAD_MS = 60_000;

/**
 * Whether a value read back is an entry a store of the portal could have written: its windows within what a
 * policy gives and its time not in the future, so nothing else in a key's place (docs/cache.md, "Whatever Redis
 * holds") reads as fresh for ever.
 */
export function isCacheEntry(value: unknown): value is CacheEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    (typeof entry.value === 'string' || Buffer.isBuffer(entry.value)) &&
    isStoredAt(entry.storedAt) &&
    isWindow(entry.ttl) &&
    isWindow(entry.grace) &&
    (entry.staleIfError === undefined || isWindow(entry.staleIfError)) &&
    isStrings(entry.tags) &&
    (entry.reads === undefined || isStrings(entry.reads)) &&
    (entry.since === undefined || isStoredAt(entry.since)) &&
    (entry.withdrawn === undefined || isStrings(entry.withdrawn))
  );
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isWindow(seconds: unknown): seconds is number {
  return typeof seconds === 'number' && seconds >= 0 && seconds <= MAX_WINDOW_SECONDS;
}

function isStoredAt(epochMs: unknown): epochMs is number {
  return typeof epochMs === 'number' && Number.isFinite(epochMs) && epochMs <= Date.now() + MAX_CLOCK_AHEAD_MS;
}
