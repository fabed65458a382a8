/**
 * What the page handler does with a request, decided from what it knows before anything is sent: whether the
 * reader gets a page of their own, and what the page cache holds. Pure, so each rule is tested on its own
 * (test/server/render/page-decision.test.ts); the units that carry out each answer are in serve-cached.ts and
 * render-miss.ts.
 */
import type { PageLookup } from '../cache/page-cache';

export interface ReaderFacts {
  /** A live session (signed in). */
  signedIn: boolean;
  /** The route renders per reader (the personal center). */
  perReader: boolean;
  /** The reader cookie the shared pages show the menu from is set. */
  hasReaderCookie: boolean;
}

/**
 * A signed-in reader gets a render of their own (PASS) on a per-reader page, and when their session predates
 * the reader cookie (the render sets it, so their next pages come from the shared cache); everyone else gets
 * the shared page.
 */
export function rendersForReader(reader: ReaderFacts): boolean {
  return reader.signedIn && (reader.perReader || !reader.hasReaderCookie);
}

export type SharedPageAction =
  /** Nothing held: render, stream, store if clean (MISS). */
  | { kind: 'render' }
  /** Held and fresh: serve it (HIT). */
  | { kind: 'hit'; lookup: PageLookup }
  /** Held within grace: serve it (STALE) and re-render it once in the background. */
  | { kind: 'stale'; lookup: PageLookup }
  /** Held past grace: render again whole; serve the held copy only if the data cannot be had (stale-if-error). */
  | { kind: 'expired'; lookup: PageLookup };

export function sharedPageAction(lookup: PageLookup | null): SharedPageAction {
  if (!lookup) return { kind: 'render' };
  switch (lookup.freshness) {
    case 'fresh':
      return { kind: 'hit', lookup };
    case 'stale':
      return { kind: 'stale', lookup };
    case 'expired':
      return { kind: 'expired', lookup };
  }
}
