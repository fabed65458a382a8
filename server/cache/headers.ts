/**
 * Response headers that tell a CDN in front of the portal what the portal's own cache knows: how long the page
 * is fresh for shared caches (s-maxage), how long it may be served stale while revalidating or while the origin
 * fails, and which tags it holds (Surrogate-Key), so a CDN purge by tag can mirror the portal's. Browsers get
 * max-age=0: they revalidate with the ETag and get a 304.
 */
import type { CachePolicy } from './entry';
import { surrogateKeyHeader } from './tags';

export const PRIVATE_NO_STORE = 'private, no-store';

/**
 * s-maxage is the entry's whole TTL, not what is left of it: a held page goes out with `Age` (seconds since it was
 * stored), and a shared cache takes the response's current age from Age (RFC 9111 §4.2.3) and keeps it fresh
 * while s-maxage exceeds that age (§4.2). Sending the TTL minus the age as well would count the age twice.
 * stale-while-revalidate and stale-if-error (RFC 5861) are windows past the end of freshness, so they stay whole.
 */
export function sharedCacheControl(policy: CachePolicy): string {
  return `public, max-age=0, s-maxage=${policy.ttl}, stale-while-revalidate=${policy.grace}, stale-if-error=${policy.staleIfError}`;
}

/** Surrogate-Key for the tags; undefined when there are none worth sending. */
export function surrogateKey(tags: Iterable<string>): string | undefined {
  const value = surrogateKeyHeader(tags);
  return value === '' ? undefined : value;
}
