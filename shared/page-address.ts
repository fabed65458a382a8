/**
 * A page's address: its path and only the query parameters its route reads, sorted and encoded one way. It is
 * what the page's cache key holds, so it is all a stored page may hold of the request (`?utm_source=…` or
 * `?from=singlemessage` never reach a stored page), and the browser compares its own location by the same rule.
 */
import { matchRoute } from './routes';

/** Only the names a page reads are kept, sorted, and re-encoded one way. */
export function normaliseQuery(search: URLSearchParams, allowed: readonly string[]): string {
  const kept: Array<[string, string]> = [];
  for (const name of [...allowed].sort()) {
    const value = search.get(name);
    if (value !== null) kept.push([name, value]);
  }
  return kept.length === 0 ? '' : `?${new URLSearchParams(kept).toString()}`;
}

/** The query parameters the page at `pathname` reads (none for anything that is not a page). */
export function queryKeysOf(pathname: string): readonly string[] {
  const match = matchRoute(pathname);
  return match.kind === 'page' ? (match.route.query ?? []) : [];
}

/** `pathname` plus the parameters of `search` its page reads. */
export function pageAddress(pathname: string, search: URLSearchParams | string): string {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return pathname + normaliseQuery(params, queryKeysOf(pathname));
}
