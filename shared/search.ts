/**
 * Search rules of SPEC §2 and §5: the keyword travels in the URL as UTF-8 then base64 (URL-safe, no padding,
 * so it fits a path segment), the type is 1 (recent) or 2 (all), and past keywords are kept newest first,
 * without duplicates, at most 20.
 */
import { SEARCH_HISTORY_MAX, SEARCH_TYPE_ALL, SEARCH_TYPE_RECENT } from './constants';

export type SearchType = typeof SEARCH_TYPE_RECENT | typeof SEARCH_TYPE_ALL;

export const SEARCH_HISTORY_KEY = 'portal.searchHistory';

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** UTF-8 bytes of `keyword` in URL-safe base64 without padding; written by hand so server and browser agree. */
export function encodeKeyword(keyword: string): string {
  const bytes = new TextEncoder().encode(keyword);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const triple = (a << 16) | (b << 8) | c;
    const chars = i + 1 >= bytes.length ? 2 : i + 2 >= bytes.length ? 3 : 4;
    for (let k = 0; k < chars; k += 1) out += BASE64_ALPHABET[(triple >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** The keyword of a URL segment (URL-safe or standard base64, padding optional); null when it is not one. */
export function decodeKeyword(segment: string): string | null {
  const clean = segment.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  if (!/^[A-Za-z0-9_-]*$/.test(clean) || clean.length % 4 === 1) return null;
  const bytes: number[] = [];
  for (let i = 0; i < clean.length; i += 4) {
    const group = clean.slice(i, i + 4);
    let bits = 0;
    for (let k = 0; k < 4; k += 1) bits = (bits << 6) | (k < group.length ? BASE64_ALPHABET.indexOf(group[k] ?? 'A') : 0);
    bytes.push((bits >> 16) & 255);
    if (group.length > 2) bytes.push((bits >> 8) & 255);
    if (group.length > 3) bytes.push(bits & 255);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

export function parseSearchType(value: string | null | undefined): SearchType {
  return value === String(SEARCH_TYPE_ALL) ? SEARCH_TYPE_ALL : SEARCH_TYPE_RECENT;
}

/** The search page of a keyword, or null for an empty one (SPEC §5: search submits only with a keyword). */
export function searchPath(keyword: string, type: SearchType): string | null {
  const word = keyword.trim();
  if (!word) return null;
  return `/search/${encodeKeyword(word)}/${type}`;
}

/** History after searching `keyword`: it moves to the front, duplicates go, the list is cut at 20. */
export function addToHistory(history: readonly string[], keyword: string): string[] {
  const word = keyword.trim();
  if (!word) return [...history];
  return [word, ...history.filter((item) => item !== word)].slice(0, SEARCH_HISTORY_MAX);
}

/** Reads a stored history defensively: storage is the reader's and may hold anything. */
export function parseHistory(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').slice(0, SEARCH_HISTORY_MAX);
  } catch {
    return [];
  }
}
