/**
 * The purges an instance has seen lately, with when they were made, so that a load or a render that started before
 * a purge does not store what it read once it finishes after it: a page re-rendered from answers fetched a moment
 * before a correction would otherwise be stored fresh with the old text, after the purge, for a whole TTL
 * (docs/cache.md "Purges"). Both the purger and every instance that hears the purge note it, each at the moment it
 * does by its own clock: what began on an instance before it heard of the purge may have read a copy the purge
 * has not reached there yet, and no two instances' clocks are compared.
 */
import type { PurgeSelector } from './invalidation';
import { isItemTag } from './tags';

/** Longer than any load or render runs (RENDER_TIMEOUT_MS, upstream timeouts): older purges cannot race one. */
const REMEMBERED_MS = 5 * 60_000;
const MAX_REMEMBERED = 10_000;

/** A purge as the clock keeps it (a PurgeAnnouncement is one). */
export interface NotedPurge {
  selectors: readonly PurgeSelector[];
  /** Only this build's entries ('*': every build). */
  build: string;
  /** A soft purge leaves its pages stale (served while one re-render runs), a hard one gone. */
  soft?: boolean;
}

interface Noted extends NotedPurge {
  at: number;
  soft: boolean;
}

/**
 * How the purges noted since an entry's load began leave it: stale from `at` (soft only), or after a hard one gone,
 * unless every hard one named only items (`article:33727`) by tag: then `withdrawn` holds them and `at` is the
 * latest, the way the sweep marks a data answer (invalidation.ts).
 */
export type Cover = { soft: true; at: number } | { soft: false; withdrawn: readonly string[] | null; at: number };

export class PurgeClock {
  private readonly noted: Noted[] = [];
  private notes = 0;

  /** Changes with every purge noted: an entry judged at one version is judged the same until it changes. */
  get version(): number {
    return this.notes;
  }

  /** Kept in order of `at` (a purge is noted at its start, which may come before one noted just earlier). */
  note({ selectors, build, soft = false }: NotedPurge, at: number = Date.now()): void {
    this.notes += 1;
    let index = this.noted.length;
    while (index > 0 && this.noted[index - 1]!.at > at) index -= 1;
    this.noted.splice(index, 0, { at, selectors, build, soft });
    const oldest = Date.now() - REMEMBERED_MS;
    while (this.noted.length > 0 && (this.noted[0]!.at < oldest || this.noted.length > MAX_REMEMBERED)) this.noted.shift();
  }

  /**
   * Whether a purge noted at or after `startedAt` covers the key or one of its tags. Newest first, down to
   * `startedAt` only: every data answer a render reads is checked, so the cost is the purges since its load.
   */
  purgedSince(key: string, tags: readonly string[], startedAt: number): boolean {
    return this.coverOf(key, tags, startedAt) !== null;
  }

  /** What the purges noted at or after `startedAt` that cover the key or one of its tags do to it; null: none. */
  coverOf(key: string, tags: readonly string[], startedAt: number): Cover | null {
    let parsed: ParsedKey | null = null;
    let softAt: number | null = null;
    let hard: { withdrawn: Set<string>; at: number } | null = null;
    for (let index = this.noted.length - 1; index >= 0; index -= 1) {
      const purge = this.noted[index]!;
      if (purge.at < startedAt) break;
      parsed ??= parseKey(key);
      if (purge.build !== '*' && purge.build !== parsed.build) continue;
      const covering = purge.selectors.filter((selector) => covers(selector, key, parsed!, tags));
      if (covering.length === 0) continue;
      if (purge.soft) {
        softAt ??= purge.at;
        continue;
      }
      const items = covering.map((selector) => (selector.by === 'tag' && isItemTag(selector.tag) ? selector.tag : null));
      if (items.includes(null)) return { soft: false, withdrawn: null, at: purge.at };
      hard ??= { withdrawn: new Set(), at: purge.at };
      for (const item of items) hard.withdrawn.add(item!);
    }
    if (hard) return { soft: false, withdrawn: [...hard.withdrawn], at: Math.max(hard.at, softAt ?? 0) };
    return softAt === null ? null : { soft: true, at: softAt };
  }
}

interface ParsedKey {
  build: string;
  kind: string;
  site: string;
  /** Page keys: the path with its query. */
  target: string;
}

function parseKey(key: string): ParsedKey {
  const parts = key.split(':');
  return { build: parts[1] ?? '', kind: parts[2] ?? '', site: parts[3] ?? '', target: parts.slice(4).join(':') };
}

function covers(selector: PurgeSelector, key: string, parsed: ParsedKey, tags: readonly string[]): boolean {
  switch (selector.by) {
    case 'key':
      return selector.key === key;
    case 'tag':
      return tags.includes(selector.tag);
    case 'site':
      return (parsed.kind === 'page' && parsed.site === String(selector.siteId)) || tags.includes(`site:${selector.siteId}`);
    case 'url': {
      if (parsed.kind !== 'page' || parsed.site !== String(selector.siteId)) return false;
      if (selector.search !== null) return parsed.target === selector.pathname + selector.search;
      return parsed.target === selector.pathname || parsed.target.startsWith(`${selector.pathname}?`);
    }
    case 'all':
      return true;
  }
}
