/**
 * Cache keys: `{prefix}:{build}:{kind}:{siteId}:{...}` (docs/architecture.md). The site is its numeric id from the site
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

/** Escapes glob metacharacters (Redis MATCH syntax) so a path is matched literally. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, (char) => `\\${char}`);
}

/** The same glob syntax as Redis MATCH (`*`, `?`, `[…]`, `\\` escapes), for the in-process store. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index]!;
    if (char === '\\' && index + 1 < glob.length) {
      index += 1;
      source += glob[index]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const close = glob.indexOf(']', index + 1);
      if (close < 0) source += '\\[';
      else {
        source += `[${glob.slice(index + 1, close).replace(/\\/g, '\\\\')}]`;
        index = close;
      }
    } else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}
