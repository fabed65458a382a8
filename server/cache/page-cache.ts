/**
 * Rendered anonymous pages, stored once in the form they are sent (stored-page.ts): sealed (the render's nonce
 * replaced by its scripts' hashes) and compressed when stored, so every reader of a cached page gets the same
 * bytes and a hit writes one stored form as it is.
 */
import type { Cache, Codec } from './cache';
import type { CacheEntry, CachePolicy, EntryValue, Freshness } from './entry';
import { freshnessOf } from './entry';
import type { KeySpace } from './keys';
import type { KeyLock } from './redis-lock';
import { cacheKey } from './keys';
import type { HeldPageEntry } from './redis-page-read';
import { compressPage, decodePage, encodePage, PAGE_FORMS, sealPage, textEtag, type HeldPage, type PageForm, type StoredPage } from './stored-page';

export type CachedPage = StoredPage;

/** What a stored page was built from. */
export interface PageSources {
  /** Its Surrogate-Key and purge tags (page-context.ts pageTags). */
  tags: string[];
  /** The data keys it was rendered from: a purge of its URL drops them too (CacheEntry.reads). */
  reads?: readonly string[];
  /** When its render began: a purge made since then keeps it from being stored (purge-clock.ts). */
  startedAt?: number;
}

/** A held page and what its entry says of it; the page possibly in one form only (lookupForm). */
export interface HeldLookup {
  page: HeldPage;
  /** 'expired' pages are only for stale-if-error: served when a re-render cannot get its data. */
  freshness: Exclude<Freshness, 'gone'>;
  tags: string[];
  storedAt: number;
}

/** A held page with every form: what every path but the fresh hit in front of Express takes. */
export interface PageLookup extends HeldLookup {
  page: CachedPage;
}

/** Every form held: what lookup answers, and lookupForm wherever the store reads whole entries. */
export function isWholeLookup(lookup: HeldLookup): lookup is PageLookup {
  return PAGE_FORMS.every((form) => lookup.page[form] !== null);
}

/** Pages compressed lately, by the validator of their sealed text: a stampede of renders of one cold page compresses it once. */
const RECENT_PAGES = 32;

/**
 * L1 hands back the same bytes on every hit: they are decoded once. Redis answers new bytes each time; decoding
 * them only slices the buffer and reads a short layout.
 */
const decoded = new WeakMap<Buffer, CachedPage>();

export const pageCodec: Codec<CachedPage> = {
  encode: (page) => encodePage(page),
  decode: (stored: EntryValue) => {
    // Text is a page stored before pages were precompressed ({html, nonce, etag}): a miss, rendered again.
    if (typeof stored === 'string') throw new Error('not a stored page');
    let page = decoded.get(stored);
    if (!page) decoded.set(stored, (page = decodePage(stored)));
    return page;
  },
};

function lookupOf(entry: CacheEntry | null): PageLookup | null {
  if (!entry) return null;
  const freshness = freshnessOf(entry);
  if (freshness === 'gone') return null;
  let page: CachedPage;
  try {
    page = pageCodec.decode(entry.value);
  } catch {
    return null;
  }
  return { page, freshness, tags: entry.tags, storedAt: entry.storedAt };
}

function heldLookupOf(entry: HeldPageEntry | null): HeldLookup | null {
  if (!entry) return null;
  const freshness = freshnessOf(entry);
  if (freshness === 'gone') return null;
  return { page: entry.page, freshness, tags: entry.tags, storedAt: entry.storedAt };
}

export class PageCache {
  private readonly refreshing = new Set<string>();
  private readonly recent = new Map<string, Promise<CachedPage>>();

  constructor(
    private readonly cache: Cache,
    private readonly keys: KeySpace,
    /** With Redis: one background re-render per key across all instances, not one per instance. */
    private readonly lock: KeyLock | null = null,
  ) {}

  /**
   * The key of the page at `path`, a page address (shared/page-address.ts): the path and only the parameters its
   * page reads, so utm_*, spm and the like never make a new entry.
   */
  keyFor(siteId: number, path: string): string {
    return cacheKey(this.keys, 'page', siteId, path);
  }

  lookup(key: string): Promise<PageLookup | null> {
    return this.cache.peek(key).then((entry) => lookupOf(entry && this.cache.unpurged(key, entry)));
  }

  /**
   * The page for one response in `form`: read in that form alone where the store can (Redis with L1 off:
   * redis-page-read.ts), else what lookup answers.
   */
  lookupForm(key: string, form: PageForm): Promise<HeldLookup | null> {
    const read = this.cache.peekPageForm(key, form);
    if (!read) return this.lookup(key);
    return read.then((entry) => heldLookupOf(entry && this.cache.unpurged(key, entry)));
  }

  /** What lookup would answer, when the store can tell at once (a page in L1); undefined when only lookup can. */
  lookupNow(key: string): PageLookup | null | undefined {
    const entry = this.cache.peekNow(key);
    return entry === undefined ? undefined : lookupOf(entry && this.cache.unpurged(key, entry));
  }

  /**
   * Seals and compresses the page (once, here) and stores it; `nonce` is the one the HTML was rendered with.
   * Null (nothing stored) for a page that cannot be sealed (sealPage).
   */
  async store(key: string, policy: CachePolicy, html: string | Buffer, nonce: string, sources: PageSources): Promise<CachedPage | null> {
    const page = await this.compress(html, nonce);
    if (page) await this.put(key, policy, page, sources);
    return page;
  }

  /** Stores a page made by `compress`, with what it was built from. */
  put(key: string, policy: CachePolicy, page: CachedPage, sources: PageSources): Promise<void> {
    const { tags, reads, startedAt } = sources;
    return this.cache.put<CachedPage>(key, policy, { value: page, cacheable: true, tags, reads }, pageCodec, startedAt);
  }

  /**
   * The page as it is stored, or null when it cannot be sealed. Compression runs off the event loop
   * (stored-page.ts); when many readers of one cold page render it at once, their identical pages (the same
   * text once sealed) are compressed once.
   */
  compress(html: string | Buffer, nonce: string): Promise<CachedPage | null> {
    const sealed = sealPage(typeof html === 'string' ? Buffer.from(html, 'utf8') : html, nonce);
    if (!sealed) return Promise.resolve(null);
    const id = textEtag(sealed.html);
    const known = this.recent.get(id);
    if (known) return known;
    const page = compressPage(sealed);
    if (this.recent.size >= RECENT_PAGES) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(id, page);
    // A failed compression is not remembered: the next store tries again.
    page.catch(() => this.recent.delete(id));
    return page;
  }

  /**
   * Re-renders a stale page once per key in this process, and (with the lock) once across instances: an instance
   * that finds the lock taken leaves the refresh to its holder. The reader who found it stale is already served.
   */
  refresh(key: string, render: () => Promise<void>, onError: (error: unknown) => void): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    this.refreshHoldingLock(key, render)
      .catch(onError)
      .finally(() => this.refreshing.delete(key));
  }

  private async refreshHoldingLock(key: string, render: () => Promise<void>): Promise<void> {
    if (!this.lock) return render();
    const token = await this.lock.tryAcquire(key).catch(() => 'no-redis');
    if (token === null) return;
    if (token === 'no-redis') return render();
    await this.lock.holdWhile(key, token, render);
  }
}
