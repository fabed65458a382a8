/**
 * A page's address: its path and only the query parameters its route reads, sorted and encoded one way. It is
 * what the page's cache key holds, so it is all a stored page may hold of the request (`?utm_source=…` or
 * `?from=singlemessage` never reach a stored page), and the browser compares its own location by the same rule.
 * The server works it out once per request (`addressOf`) and passes it along: to the cache key, to the page's
 * loader and to the state the page is rendered from.
 */
import { findRoute, type RouteMatch } from './routes';

export interface PageAddress {
  pathname: string;
  /** The route table's answer for `pathname`. */
  match: RouteMatch;
  /** The query its page reads, normalised: '' or `?name=value&…`. */
  query: string;
  /** `pathname` + `query`: what the page's cache key and its state's `path` hold. */
  path: string;
}

/**
 * A value every page reads as if the parameter were absent: `?page=1` is the first page, the address without it
 * (the path the site links to, shared/routes.ts href.withPage), so it is not a second cache entry or canonical link.
 */
const DEFAULT_VALUES: Readonly<Record<string, string>> = { page: '1' };

/** Only the names a page reads are kept (the first value of each, a default value left out), sorted, re-encoded one way. */
export function normaliseQuery(search: URLSearchParams, allowed: readonly string[]): string {
  const kept: Array<[string, string]> = [];
  for (const name of [...allowed].sort()) {
    const value = search.get(name);
    if (value !== null && value !== DEFAULT_VALUES[name]) kept.push([name, value]);
  }
  return kept.length === 0 ? '' : `?${new URLSearchParams(kept).toString()}`;
}

/** The query parameters a matched page reads (none for anything that is not a page). */
function queryKeysOfMatch(match: RouteMatch): readonly string[] {
  return match.kind === 'page' ? (match.route.query ?? []) : [];
}

/** The address of the page at `pathname` asked for with `search`: the route matched once, the query kept once. */
export function addressOf(pathname: string, search: URLSearchParams | string): PageAddress {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const match = findRoute(pathname);
  const query = normaliseQuery(params, queryKeysOfMatch(match));
  return { pathname, match, query, path: pathname + query };
}

/** `pathname` plus the parameters of `search` its page reads. */
export function pageAddress(pathname: string, search: URLSearchParams | string): string {
  return addressOf(pathname, search).path;
}
