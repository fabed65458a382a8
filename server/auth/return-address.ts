/**
 * Where a reader goes after signing in. Only a path on this site or a URL on one of the portal's own domains is
 * accepted; everything a browser could read as another host (`//evil.example`, `/\evil.example`,
 * `https:evil.example`, percent-encoded slashes or backslashes, control characters) falls back to '/'.
 */
import { canonicalPathOf } from '../../shared/canonical-path';
import { ALL_SITES } from '../../shared/sites';

const PORTAL_HOSTS = new Set(ALL_SITES.map((site) => site.domain));
const MAX_LENGTH = 2048;
const SENTINEL_ORIGIN = 'http://portal.invalid';
/** Sign-in parameters never survive into the address the reader lands on. */
const SIGN_IN_PARAMS = ['code', 'state'];

function strip(url: URL): void {
  for (const name of SIGN_IN_PARAMS) url.searchParams.delete(name);
}

/** Backslashes, whitespace and control characters, raw or percent-encoded, have no place in a return address. */
function hasSuspiciousCharacters(raw: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\\\s\u0000-\u001f\u007f]/.test(raw) || /%(5c|2f|0[0-9a-f]|1[0-9a-f]|7f|20|09)/i.test(raw);
}

/**
 * A path on this site. The check is made on the value that will be sent, after the URL parser has resolved dot
 * segments (`/.//evil.example`, `/a/..//evil.example` and `/%2e//evil.example` all parse to `//evil.example`):
 * the path is brought to its canonical spelling, which never starts with two slashes, and must still read as a
 * path of this origin.
 */
function samePathOrRoot(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw, SENTINEL_ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== SENTINEL_ORIGIN) return '/';
  const path = canonicalPathOf(url.pathname);
  if (path === null) return '/';
  strip(url);
  const address = path + url.search + url.hash;
  return isOwnPath(address) ? address : '/';
}

/** What a browser reads as a path of the current origin: one leading slash, no scheme, no host. */
function isOwnPath(address: string): boolean {
  if (!address.startsWith('/') || address.startsWith('//') || address.startsWith('/\\')) return false;
  return new URL(address, SENTINEL_ORIGIN).origin === SENTINEL_ORIGIN;
}

export function safeReturnAddress(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_LENGTH || hasSuspiciousCharacters(raw)) return '/';
  if (raw.startsWith('/')) return samePathOrRoot(raw);
  // Absolute: scheme spelled out with '//' (so 'https:evil.example' never parses as a URL of ours).
  if (!/^https?:\/\/[a-z0-9.-]+(:\d+)?(\/|$|\?|#)/i.test(raw)) return '/';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '/';
  }
  if (url.username || url.password || url.port || !PORTAL_HOSTS.has(url.hostname)) return '/';
  strip(url);
  return url.toString();
}
