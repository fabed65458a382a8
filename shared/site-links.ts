/**
 * Whether a link stays inside the portal's own app: a path (or a URL on the current site's own domain) that a
 * built page of the route table serves. Such links navigate on the client; everything else (other sites,
 * feeds, files, other domains of the network) is an ordinary document load.
 */
import { matchRoute } from './routes';

/** The path (+ query + hash) to navigate to on the client, or null when the link must load a new document. */
export function appPathOf(href: string, siteDomain: string): string | null {
  const base = `https://${siteDomain}/`;
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.host !== siteDomain) return null;
  const match = matchRoute(url.pathname);
  if (match.kind !== 'page') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
