/**
 * Rendered anonymous pages. An entry holds the finished HTML with the nonce it was rendered with; each response
 * swaps in its own fresh nonce, so a cached page never reuses a CSP nonce. The ETag is computed on the stored
 * form, so it is stable for as long as the entry is.
 */
import { createHash } from 'node:crypto';
import { matchRoute } from '../../shared/routes';
import type { Cache } from './cache';
import type { CachePolicy, Freshness } from './entry';
import { freshnessOf } from './entry';
import type { KeySpace } from './keys';
import { cacheKey, normaliseQuery } from './keys';

export interface CachedPage {
  html: string;
  /** The nonce the HTML was rendered with; replaced on every response. */
  nonce: string;
  etag: string;
}

export interface PageLookup {
  page: CachedPage;
  /** 'expired' pages are only for stale-if-error: served when a re-render cannot get its data. */
  freshness: Exclude<Freshness, 'gone'>;
  tags: string[];
  storedAt: number;
}

/** The query parameters the page at `pathname` reads (route table); all others are dropped from its key. */
export function pageQueryParams(pathname: string): readonly string[] {
  const match = matchRoute(pathname);
  return match.kind === 'page' ? (match.route.query ?? []) : [];
}

export function etagOf(html: string): string {
  return `W/"${createHash('sha1').update(html).digest('base64url').slice(0, 22)}"`;
}

export function withNonce(page: CachedPage, nonce: string): string {
  return page.html.split(page.nonce).join(nonce);
}

function isCachedPage(value: unknown): value is CachedPage {
  const page = value as Partial<CachedPage> | null;
  return typeof page?.html === 'string' && typeof page.nonce === 'string' && page.nonce.length >= 16 && typeof page.etag === 'string';
}

export class PageCache {
  private readonly refreshing = new Set<string>();

  constructor(
    private readonly cache: Cache,
    private readonly keys: KeySpace,
  ) {}

  /** `readsQuery`: the parameters the route's page reads; all others (utm_*, spm, …) are dropped from the key. */
  keyFor(siteId: number, pathname: string, search: URLSearchParams, readsQuery: readonly string[]): string {
    return cacheKey(this.keys, 'page', siteId, `${pathname}${normaliseQuery(search, readsQuery)}`);
  }

  async lookup(key: string): Promise<PageLookup | null> {
    const entry = await this.cache.peek(key);
    if (!entry) return null;
    const freshness = freshnessOf(entry);
    if (freshness === 'gone') return null;
    let page: unknown;
    try {
      page = JSON.parse(entry.value);
    } catch {
      return null;
    }
    if (!isCachedPage(page)) return null;
    return { page, freshness, tags: entry.tags, storedAt: entry.storedAt };
  }

  async store(key: string, policy: CachePolicy, html: string, nonce: string, tags: string[]): Promise<CachedPage> {
    const page: CachedPage = { html, nonce, etag: etagOf(html) };
    await this.cache.put<CachedPage>(key, policy, { value: page, cacheable: true, tags });
    return page;
  }

  /** Re-renders a stale page once per key in this process; the reader who found it stale has already been served. */
  refresh(key: string, render: () => Promise<void>, onError: (error: unknown) => void): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    render()
      .catch(onError)
      .finally(() => this.refreshing.delete(key));
  }
}
