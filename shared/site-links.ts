/**
 * Whether a link stays inside the portal's own app: a path (or a URL on the current site's own domain) that a
 * built page of the route table serves. Such links navigate on the client; everything else (other sites,
 * feeds, files, other domains of the network) is an ordinary document load.
 */
import { isPlainPath } from './canonical-path';
import { findRoute } from './routes';

/**
 * The path (+ query + hash) to navigate to on the client, or null when the link must load a new document. A plain
 * path (nearly every link a page renders: `/detail/2728/33727`) is its own answer, without a URL parse: a page
 * renders some 300 links, on the server for every render and in the browser again while hydrating.
 */
export function appPathOf(href: string, siteDomain: string): string | null {
  if (isPlainPath(href)) return findRoute(href).kind === 'page' ? href : null;
  return appPathByParse(href, siteDomain);
}

/** appPathOf by a full URL parse, whatever the href (the test holds the plain-path answer to it). */
export function appPathByParse(href: string, siteDomain: string): string | null {
  const base = `https://${siteDomain}/`;
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.host !== siteDomain) return null;
  const match = findRoute(url.pathname);
  if (match.kind !== 'page') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
