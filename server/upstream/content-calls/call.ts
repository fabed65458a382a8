/**
 * One content call as data: what it is cached under and for how long, what it depends on, what it asks the
 * upstream, how its answer is checked and normalised, and what it yields when there is nothing (docs/cache.md,
 * "What counts as a failed call"). The call modules beside this one only describe calls; running them (the data
 * cache, recording, failures) is content-service.ts's.
 */
import type { z } from 'zod';
import type { DataFamily } from '../../cache/policy';
import type { UpstreamRequest } from '../http-client';

export interface CallSpec<Raw, T> {
  family: DataFamily;
  /** Key suffix after the kind and site segments, e.g. `list:3281:1:5`. */
  key: string;
  tags: string[];
  /**
   * The keys of the items the answer shows (`article:33727` for each headline of a list), added to its tags, so a
   * purge of one article reaches every list holding its headline and every page built on those lists.
   */
  shows?: (value: T) => string[];
  /**
   * The answer without the items `gone` names (a hard purge withdrew them after it was stored): what a render that
   * must fall back on it while the CMS fails shows. With `shows` and no `without`, such an answer is not used.
   */
  without?: (value: T, gone: ReadonlySet<string>) => T;
  request: UpstreamRequest;
  /** The answer's data is checked against this where it enters; another shape is a failed call. */
  schema: z.ZodType<Raw, unknown>;
  /**
   * The normalised value's shape (server/upstream/entity-schemas.ts STORED): a cached value is read only if it has it,
   * otherwise it is a miss (server/cache/cache.ts checkedJsonCodec). A module-level schema: its codec is made once.
   */
  stored: z.ZodType<T, unknown>;
  /** May be async: long work (sanitising a body) yields to other readers. */
  normalise: (raw: Raw) => T | Promise<T>;
  /** What the CMS's 'not found' (or, for optional calls, a failure) yields. */
  empty: T;
  /** Required calls throw ContentUnavailableError on a failure instead of yielding `empty`, whoever asks. */
  required?: boolean;
  /**
   * What is around a page rather than its content (ads, grey mode, site SEO): a failure yields `empty` even for
   * a page's own loader, so a missing ad never turns an article into a 503.
   */
  decoration?: boolean;
}

/** Runs one call for a request (through the data cache, recorded, its failure handled as the request asked). */
export type Call = <Raw, T>(spec: CallSpec<Raw, T>) => Promise<T>;

/** `article:{id}` of each article a list shows. */
export function articleKeys(items: ReadonlyArray<{ id: number }>): string[] {
  return items.map((item) => `article:${item.id}`);
}

/** Whether an item is still to be shown: `gone` does not name it as `{kind}:{id}`. */
export function kept(kind: 'article' | 'video' | 'live' | 'topic' | 'boutique', gone: ReadonlySet<string>): (item: { id: number }) => boolean {
  return (item) => !gone.has(`${kind}:${item.id}`);
}

/** `{kind}:{id}` of each item: videos, lives, topics, boutique items. */
export function itemKeys(kind: 'video' | 'live' | 'topic' | 'boutique', items: ReadonlyArray<{ id: number }>): string[] {
  return items.map((item) => `${kind}:${item.id}`);
}
