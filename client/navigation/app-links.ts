/**
 * One click listener for every link of the portal (shared/ui/link.tsx renders plain anchors): an unmodified
 * primary click on a same-origin link to a page of the route table navigates in the app through React Router;
 * anything else (another button, a modifier, a target, a download, another origin, a path no page serves) is the
 * browser's, and so is a link to a place in the page shown (跳到正文): the browser scrolls to its target and moves
 * focus there, which a router navigation would not. A click on the address already shown replaces the entry
 * instead of adding one.
 */
import { findRoute } from '../../shared/routes';

interface Navigator {
  navigate(to: string, options?: { replace?: boolean }): Promise<void>;
}

function appTarget(event: MouseEvent): { anchor: HTMLAnchorElement; url: URL } | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target !== '' && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin || findRoute(url.pathname).kind !== 'page') return null;
  if (url.hash !== '' && url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return { anchor, url };
}

export function followAppLinks(router: Navigator): void {
  document.addEventListener('click', (event) => {
    const found = appTarget(event);
    if (!found) return;
    event.preventDefault();
    const to = found.url.pathname + found.url.search + found.url.hash;
    const { pathname, search, hash } = window.location;
    void router.navigate(to, { replace: pathname + search + hash === to });
  });
}
