/**
 * Response headers that tell a CDN in front of the portal what the portal's own cache knows: how long the page
 * is fresh for shared caches (s-maxage), how long it may be served stale while revalidating or while the origin
 * fails, and which tags it holds (Surrogate-Key), so a CDN purge by tag can mirror the portal's. Browsers get
 * max-age=0: they revalidate with the ETag and get a 304.
 */
import type { CachePolicy } from './entry';
import { surrogateKeyHeader } from './tags';

export const PRIVATE_NO_STORE = 'private, no-store';

export function sharedCacheControl(policy: CachePolicy, ageSeconds: number): string {
  const fresh = Math.max(0, policy.ttl - ageSeconds);
  return `public, max-age=0, s-maxage=${fresh}, stale-while-revalidate=${policy.grace}, stale-if-error=${policy.staleIfError}`;
}

/** Surrogate-Key for the tags; undefined when there are none worth sending. */
export function surrogateKey(tags: Iterable<string>): string | undefined {
  const value = surrogateKeyHeader(tags);
  return value === '' ? undefined : value;
}
