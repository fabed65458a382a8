/**
 * Default TTL and grace (seconds) per upstream call family and per page kind. Short for what changes by the
 * minute (lists, hot news), longer for what editors rarely touch (menu, site config).
 */
import type { CachePolicy } from './entry';

export const DATA_POLICY = {
  menu: { ttl: 300, grace: 3600 },
  categoryIndex: { ttl: 300, grace: 3600 },
  list: { ttl: 60, grace: 600 },
  article: { ttl: 300, grace: 3600 },
  ads: { ttl: 300, grace: 3600 },
  topics: { ttl: 300, grace: 3600 },
  columns: { ttl: 300, grace: 3600 },
  site: { ttl: 3600, grace: 86400 },
  greyMode: { ttl: 60, grace: 600 },
} as const satisfies Record<string, CachePolicy>;

export type DataFamily = keyof typeof DATA_POLICY;

export const PAGE_POLICY: Record<'home' | 'detail' | 'default', CachePolicy> = {
  home: { ttl: 30, grace: 300 },
  detail: { ttl: 120, grace: 1200 },
  default: { ttl: 60, grace: 600 },
};

export function pagePolicyFor(pageKind: string): CachePolicy {
  return pageKind === 'home' || pageKind === 'detail' ? PAGE_POLICY[pageKind] : PAGE_POLICY.default;
}
