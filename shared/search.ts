/**
 * Search rules of docs/product.md §2 and §5: the keyword travels in the URL as UTF-8 then base64 (URL-safe, no padding,
 * so it fits a path segment), the type is 1 (recent) or 2 (all), and past keywords are kept newest first,
 * without duplicates, at most 20.
 */
import { SEARCH_HISTORY_MAX, SEARCH_TYPE_ALL, SEARCH_TYPE_RECENT } from './constants';
import { encodeKeyword } from './search-keyword';

export type SearchType = typeof SEARCH_TYPE_RECENT | typeof SEARCH_TYPE_ALL;

export const SEARCH_HISTORY_KEY = 'portal.searchHistory';

// One keyword codec for the search box and the search page (UTF-8 → URL-safe base64, read in either alphabet).
export { decodeKeyword, encodeKeyword } from './search-keyword';

export function parseSearchType(value: string | null | undefined): SearchType {
  return value === String(SEARCH_TYPE_ALL) ? SEARCH_TYPE_ALL : SEARCH_TYPE_RECENT;
}

/** The search page of a keyword, or null for an empty one (docs/product.md §5: search submits only with a keyword). */
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
