/** What every cache entry knows about itself (DESIGN.md cache contract), and how fresh that makes it. */
export interface CachePolicy {
  /** Seconds the entry is served as fresh. */
  ttl: number;
  /** Seconds after ttl during which it is still served, while one refresh runs in the background. */
  grace: number;
}

export interface CacheEntry {
  value: string;
  /** Epoch milliseconds. */
  storedAt: number;
  ttl: number;
  grace: number;
  /** What the entry depends on (article, category, site, route kind), for purges and Surrogate-Key. */
  tags: string[];
}

export type Freshness = 'fresh' | 'stale' | 'expired';

export function freshnessOf(entry: CacheEntry, now: number = Date.now()): Freshness {
  const ageSeconds = (now - entry.storedAt) / 1000;
  if (ageSeconds < entry.ttl) return 'fresh';
  if (ageSeconds < entry.ttl + entry.grace) return 'stale';
  return 'expired';
}

export function ageSeconds(entry: CacheEntry, now: number = Date.now()): number {
  return Math.max(0, Math.floor((now - entry.storedAt) / 1000));
}

/** How long a store keeps an entry: past grace it can only be served if the upstream is down. */
export function retentionMs(entry: Pick<CacheEntry, 'ttl' | 'grace'>): number {
  return (entry.ttl + entry.grace) * 1000;
}

export function isCacheEntry(value: unknown): value is CacheEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.value === 'string' &&
    typeof entry.storedAt === 'number' &&
    typeof entry.ttl === 'number' &&
    typeof entry.grace === 'number' &&
    Array.isArray(entry.tags)
  );
}
