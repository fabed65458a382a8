/**
 * Default TTL, grace and stale-if-error (seconds) per upstream call family and per page kind. Short for what
 * changes by the minute (lists, hot news), longer for what editors rarely touch (menu, site config). A day of
 * stale-if-error means a CMS outage of up to a day shows readers what they saw before it, not an error page.
 */
import type { CachePolicy } from './entry';

export const DAY = 86_400;

export const DATA_POLICY = {
  menu: { ttl: 300, grace: 3600, staleIfError: DAY },
  categoryIndex: { ttl: 300, grace: 3600, staleIfError: DAY },
  list: { ttl: 60, grace: 600, staleIfError: DAY },
  article: { ttl: 300, grace: 3600, staleIfError: DAY },
  ads: { ttl: 300, grace: 3600, staleIfError: DAY },
  topics: { ttl: 300, grace: 3600, staleIfError: DAY },
  columns: { ttl: 300, grace: 3600, staleIfError: DAY },
  site: { ttl: 3600, grace: 86400, staleIfError: DAY },
  greyMode: { ttl: 60, grace: 600, staleIfError: DAY },
  search: { ttl: 60, grace: 300, staleIfError: DAY },
  media: { ttl: 300, grace: 3600, staleIfError: DAY },
  // A live's state (upcoming → live → ended) must show within seconds of changing.
  live: { ttl: 15, grace: 60, staleIfError: DAY },
  newspaper: { ttl: 600, grace: 3600, staleIfError: DAY },
} as const satisfies Record<string, CachePolicy>;

export type DataFamily = keyof typeof DATA_POLICY;

export type PageKind = 'home' | 'detail' | 'default';

export const PAGE_POLICY: Record<PageKind, CachePolicy> = {
  home: { ttl: 30, grace: 300, staleIfError: DAY },
  detail: { ttl: 120, grace: 1200, staleIfError: DAY },
  default: { ttl: 60, grace: 600, staleIfError: DAY },
};

/** The policy kind of a page id: home and detail have their own, every other page the default. */
export function pageKindOf(page: string): PageKind {
  return page === 'home' || page === 'detail' ? page : 'default';
}

export function pagePolicyFor(page: string): CachePolicy {
  return PAGE_POLICY[pageKindOf(page)];
}

/** The CMS's business code for 'no such item' (category, article, topic). */
export const UPSTREAM_NOT_FOUND_CODE = 40004;

/**
 * 'Not found' answers are cached briefly (negative caching), so a crawler walking dead ids cannot turn each
 * request into a CMS call; short, because the id may be an article an editor is about to publish. Never served
 * past its ttl: a stale 'not found' would hide a published article.
 */
export const NOT_FOUND_POLICY: CachePolicy = { ttl: 30, grace: 0, staleIfError: 0 };
