/**
 * The search box without script is a plain GET form (`/search?q=&type=`); the search route keeps the keyword
 * base64 in the path (docs/product.md §2), so that form is redirected to `/search/{base64url}/{type}`. An empty keyword
 * has nothing to search and goes to the bare search page.
 */
import { parseSearchType, searchPath } from '../../shared/search';

/** Where a `/search?q=…` request belongs, or null when the request is not that form. */
export function searchFormRedirect(pathname: string, params: URLSearchParams): string | null {
  if (pathname !== '/search' || !params.has('q')) return null;
  const path = searchPath((params.get('q') ?? '').slice(0, 200), parseSearchType(params.get('type')));
  return path ?? '/search';
}
