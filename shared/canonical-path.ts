/**
 * The one spelling of a path (docs/security.md, "One path per page"). Every step after the edge (the cached-hit
 * path, Express's routes, the mobile redirect, the cache key, purges by URL) sees only this form, so two
 * spellings can never mean two cache entries or two answers. The canonical form:
 * - dot segments resolved (`.`, `..`, `%2e`, `%2E%2e`…) and backslashes read as slashes, as browsers do;
 * - no empty segments (`//` is `/`) and no trailing slash (except the root itself);
 * - a percent escape decoded when its character may stand in a segment as it is (letters, digits,
 *   `-._~!$&'()*+,;=:@`), so `%32788` is `2788`; every other escape kept with upper-case hex (`%2F`, `%E4`);
 * - characters that may not stand raw in a path (non-ASCII, spaces, quotes…) percent-encoded as UTF-8.
 * A path with a malformed escape (`%zz`, a lone `%`) or a control character has no canonical form.
 */

const FIXED_ORIGIN = 'http://portal.invalid';
/** RFC 3986 pchar minus '%' and '/': what a segment may carry unescaped. */
const SEGMENT_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const MAX_PASSES = 4;
/**
 * Segments of characters a segment may carry unescaped, none empty and none a dot segment: a path the full
 * parse (onePass) would give back unchanged, so it is known canonical without one (the test holds the two to
 * the same answer on generated paths). Nearly every request's path looks like this (`/home`,
 * `/detail/2728/33727`), and the edge and the hit path both ask on every request.
 */
const PLAINLY_CANONICAL = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+$/;
const CANONICAL: CanonicalPath = Object.freeze({ kind: 'canonical' });
const INVALID: CanonicalPath = Object.freeze({ kind: 'invalid' });

export type CanonicalPath = { kind: 'canonical' } | { kind: 'other'; path: string } | { kind: 'invalid' };

/**
 * A path of plain segments (or the root): canonical as it is, and what a WHATWG URL parse gives back unchanged as
 * the pathname, with no query or fragment (none of its characters is one a parser escapes or reads as a
 * delimiter).
 */
export function isPlainPath(path: string): boolean {
  return path === '/' || PLAINLY_CANONICAL.test(path);
}

/** The canonical spelling of `path` (no query), or null when it has none. */
export function canonicalPathOf(path: string): string | null {
  return isPlainPath(path) ? path : canonicalPathByParse(path);
}

/** canonicalPathOf by the full parse, whatever the path (the test holds the plain check to it). */
export function canonicalPathByParse(path: string): string | null {
  if (!path.startsWith('/') || CONTROL.test(path) || MALFORMED_ESCAPE.test(path)) return null;
  let current = path;
  // Decoding an escape can make a new dot segment or empty segment; a few passes reach the fixed point.
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const next = onePass(current);
    if (next === null) return null;
    if (next === current) return current;
    current = next;
  }
  return null;
}

/** Whether `path` is already canonical, and if not, its canonical spelling. */
export function classifyPath(path: string): CanonicalPath {
  const canonical = canonicalPathOf(path);
  if (canonical === null) return INVALID;
  return canonical === path ? CANONICAL : { kind: 'other', path: canonical };
}

function onePass(path: string): string | null {
  let resolved: string;
  try {
    // The WHATWG parser resolves dot segments (also percent-encoded ones) and encodes what may not be raw.
    resolved = new URL(collapseSlashes(path), FIXED_ORIGIN).pathname;
  } catch {
    return null;
  }
  const decoded = resolved.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return SEGMENT_SAFE.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  return withoutTrailingSlash(collapseSlashes(decoded));
}

function collapseSlashes(path: string): string {
  return path.replace(/[/\\]{2,}/g, '/');
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
