/**
 * Search keywords in URLs (docs/product.md §2): UTF-8, then base64. Written URL-safe without padding (no '/' to split
 * the path, no '+' or '=' to be mangled by proxies); read in either alphabet, padded or not, and every spelling
 * but the written one is a 301 to it (shared/routes.ts routeSpelling). Anything that is not base64 of valid UTF-8
 * reads as null: no page (a 404), never an error.
 */
const MAX_KEYWORD_LENGTH = 100;

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function encodeKeyword(keyword: string): string {
  return bytesToBase64(new TextEncoder().encode(keyword)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeKeyword(encoded: string): string | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) return null;
  const standard = encoded.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return null;
  try {
    const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).trim();
    return text === '' || text.length > MAX_KEYWORD_LENGTH ? null : text;
  } catch {
    return null;
  }
}

/** Splits `text` around case-insensitive occurrences of `keyword`, for highlighting without HTML strings. */
export function splitForHighlight(text: string, keyword: string): Array<{ text: string; match: boolean }> {
  if (!keyword) return [{ text, match: false }];
  const parts: Array<{ text: string; match: boolean }> = [];
  const lower = text.toLowerCase();
  const needle = keyword.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, from)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + needle.length), match: true });
    from = at + needle.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}
