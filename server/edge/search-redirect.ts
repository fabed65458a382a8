/**
 * The search box without script is a plain GET form (`/search?q=&type=`); the search route keeps the keyword
 * base64 in the path (docs/product.md §2), so that form is redirected to `/search/{base64url}/{type}`. An empty keyword
 * has nothing to search and goes to the bare search page.
 */
import { parseSearchType, searchPath } from '../../shared/search';
import { wellFormed } from '../platform/well-formed';

/** Where a `/search?q=…` request belongs, or null when the request is not that form. */
export function searchFormRedirect(pathname: string, params: URLSearchParams): string | null {
  if (pathname !== '/search' || !params.has('q')) return null;
  // Cut at 200 code units, which may split a pair: made well-formed again so the keyword encodes as it reads.
  const path = searchPath(wellFormed((params.get('q') ?? '').slice(0, 200)), parseSearchType(params.get('type')));
  return path ?? '/search';
}
