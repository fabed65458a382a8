/**
 * What the page handler does with a shared page, decided from what the page cache holds before anything is
 * sent (whether the reader gets a page of their own is the edge's rule: server/edge/classify.ts). Pure, so each rule is tested on its own
 * (test/server/render/page-decision.test.ts); the units that carry out each answer are in serve-cached.ts and
 * render-miss.ts.
 */
import type { PageLookup } from '../cache/page-cache';

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
