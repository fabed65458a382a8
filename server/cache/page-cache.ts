/**
 * Rendered anonymous pages, stored precompressed and cut at the nonce they were rendered with
 * (precompressed-page.ts): each response puts its own fresh nonce in, so a cached page never reuses a CSP
 * nonce, and is sent without re-encoding or compressing anything. The ETag is computed on the stored HTML, so
 * it is stable for as long as the entry is.
 */
import { createHash } from 'node:crypto';
import type { Cache, Codec } from './cache';
import type { CacheEntry, CachePolicy, EntryValue, Freshness } from './entry';
import { freshnessOf } from './entry';
import type { KeySpace } from './keys';
import type { KeyLock } from './redis-lock';
import { cacheKey } from './keys';
import { decodePage, encodePage, precompressPieces, splitAtNonce, type HeldPage, type PageForm, type PrecompressedPage } from './precompressed-page';
import type { HeldPageEntry } from './redis-page-read';

export type CachedPage = PrecompressedPage;

/** A held page and what its entry says of it; the page possibly in one form only (lookupForm). */
export interface HeldLookup {
  page: HeldPage;
  /** 'expired' pages are only for stale-if-error: served when a re-render cannot get its data. */
  freshness: Exclude<Freshness, 'gone'>;
  tags: string[];
  storedAt: number;
}

/** A held page with both its forms: what every path but the fresh hit in front of Express takes. */
export interface PageLookup extends HeldLookup {
  page: CachedPage;
}

/** Both forms held: what lookup answers, and lookupForm wherever the store reads whole entries. */
export function isWholeLookup(lookup: HeldLookup): lookup is PageLookup {
  return lookup.page.plain !== null && lookup.page.deflated !== null;
}

/**
 * The page's ETag, from its HTML without the render's nonce: a re-render that changed nothing keeps the ETag
 * (readers revalidating get a 304; their copy kept the CSP that matches its own nonce).
 */
export function etagOf(html: string | Buffer, nonce: string): string {
  const bytes = typeof html === 'string' ? Buffer.from(html, 'utf8') : html;
  return etagOfPieces(splitAtNonce(bytes, Buffer.from(nonce, 'utf8')));
}

/** etagOf of a page already cut at its nonce (splitAtNonce). */
function etagOfPieces(pieces: readonly Buffer[]): string {
  const hash = createHash('sha1');
  for (const piece of pieces) hash.update(piece).update(PIECE_END);
  return `W/"${hash.digest('base64url').slice(0, 22)}"`;
}

const PIECE_END = Buffer.from([0]);

/** Pages compressed lately, by ETag and nonce length: a stampede of renders of one cold page compresses it once. */
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
    if (typeof stored === 'string') throw new Error('not a precompressed page');
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
    return this.cache.peek(key).then(lookupOf);
  }

  /**
   * The page for one response in `form` (plain for identity, deflated for gzip): read in that form alone where the
   * store can (Redis with L1 off: redis-page-read.ts), else what lookup answers. A deflated page rendered with a
   * nonce of another length than `nonceLength` cannot take this response's nonce: it is read whole.
   */
  lookupForm(key: string, form: PageForm, nonceLength: number): Promise<HeldLookup | null> {
    const read = this.cache.peekPageForm(key, form);
    if (!read) return this.lookup(key);
    return read.then((entry) => {
      const lookup = heldLookupOf(entry);
      if (lookup && form === 'deflated' && lookup.page.nonceLength !== nonceLength) return this.lookup(key);
      return lookup;
    });
  }

  /** What lookup would answer, when the store can tell at once (a page in L1); undefined when only lookup can. */
  lookupNow(key: string): PageLookup | null | undefined {
    const entry = this.cache.peekNow(key);
    return entry === undefined ? undefined : lookupOf(entry);
  }

  /** Compresses the page (once, here) and stores it; `nonce` is the one the HTML was rendered with. */
  async store(key: string, policy: CachePolicy, html: string | Buffer, nonce: string, tags: string[]): Promise<CachedPage> {
    const page = await this.compress(html, nonce);
    await this.put(key, policy, page, tags);
    return page;
  }

  /** Stores a page compressed by `compress`. */
  put(key: string, policy: CachePolicy, page: CachedPage, tags: string[]): Promise<void> {
    return this.cache.put<CachedPage>(key, policy, { value: page, cacheable: true, tags }, pageCodec);
  }

  /**
   * Compression runs off the event loop (precompressed-page.ts); when many readers of one cold page render it
   * at once, their identical pages are compressed once.
   */
  compress(html: string | Buffer, nonce: string): Promise<CachedPage> {
    // The page's UTF-8 bytes are cut at the nonce once, for the ETag and the compression alike.
    const bytes = typeof html === 'string' ? Buffer.from(html, 'utf8') : html;
    const nonceBytes = Buffer.from(nonce, 'utf8');
    const pieces = splitAtNonce(bytes, nonceBytes);
    const etag = etagOfPieces(pieces);
    const id = `${etag} ${nonceBytes.length}`;
    const known = this.recent.get(id);
    if (known) return known;
    const page = precompressPieces(pieces, nonceBytes.length, etag, bytes.includes(0));
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
