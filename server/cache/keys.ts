/**
 * Cache keys: `{prefix}:{build}:{kind}:{siteId}:{...}` (DESIGN.md). The site is its numeric id from the site
 * table, never the request's Host, so no header can create or poison an entry for another site.
 */
export type KeyKind = 'data' | 'page';

export interface KeySpace {
  prefix: string;
  buildId: string;
}

/** Site-independent upstream calls are shared by all 23 sites under this site segment. */
export const ALL_SITES_SEGMENT = '_';

export function cacheKey(space: KeySpace, kind: KeyKind, site: number | typeof ALL_SITES_SEGMENT, rest: string): string {
  return `${space.prefix}:${space.buildId}:${kind}:${site}:${rest}`;
}

/**
 * Query strings normalised for a page key: only the names a page reads are kept (everything else, tracking
 * parameters included, cannot make a new entry), sorted, and re-encoded one way.
 */
export function normaliseQuery(search: URLSearchParams, allowed: readonly string[]): string {
  const kept: Array<[string, string]> = [];
  for (const name of [...allowed].sort()) {
    const value = search.get(name);
    if (value !== null) kept.push([name, value]);
  }
  return kept.length === 0 ? '' : `?${new URLSearchParams(kept).toString()}`;
}
