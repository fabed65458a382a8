/**
 * Hovering (or focusing) a link to another portal page fetches that page's data ahead of the click, unless
 * the connection is 2g or the reader asked to save data (docs/product.md §4). One listener on the document covers every
 * link, including those rendered later.
 */
import { prefetchAllowed, type ConnectionHints } from '../../shared/prefetch';
import { findRoute } from '../../shared/routes';
import { prefetchPageData } from './page-data';

function connection(): ConnectionHints | undefined {
  return (navigator as Navigator & { connection?: ConnectionHints }).connection;
}

function samePortalPath(anchor: HTMLAnchorElement): string | null {
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const path = url.pathname + url.search;
  if (path === window.location.pathname + window.location.search) return null;
  // Only routes whose pages are built: the others would answer 404 and teach the reader nothing.
  const match = findRoute(url.pathname);
  return match.kind === 'page' && match.route.page ? path : null;
}

export function prefetchOnHover(): () => void {
  const onIntent = (event: Event) => {
    const anchor = (event.target as Element | null)?.closest?.('a[href]');
    if (!(anchor instanceof HTMLAnchorElement) || !prefetchAllowed(connection())) return;
    const path = samePortalPath(anchor);
    if (path) prefetchPageData(path);
  };
  document.addEventListener('pointerover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);
  return () => {
    document.removeEventListener('pointerover', onIntent);
    document.removeEventListener('focusin', onIntent);
  };
}
