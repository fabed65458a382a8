/**
 * The browser side of the router: React Router owns the URL and history; on each location change this loads
 * the next page's state and module, keeps the current page on screen meanwhile, then swaps them in.
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLocation, useNavigate, useNavigationType } from '../../shared/ui/router';
import { trackPageView } from '../../shared/visit-stats';
import { READER_ATTRIBUTE, readerFromCookieHeader } from '../../shared/reader-cookie';
import type { AppState, PageState, PublicUser } from '../../shared/app-state';
import { PortalApp } from '../../shared/ui/App';
import type { ResourceStore } from '../../shared/ui/data/resource-store';
import { loadPage } from '../../shared/pages/registry';
import { pageAddress } from '../../shared/page-address';
import { reportClientError } from '../../shared/ui/lib/report-error';
import { reloadAfterError } from './error-reload';
import { prefetchOnHover } from './prefetch';
import { fetchPageData, rememberPage } from './page-data';

/** The element a location's #hash names, if the page shown has it. */
function hashTarget(hash: string): HTMLElement | null {
  if (hash.length < 2) return null;
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    return null;
  }
}

/** What the error page says when the next page's data could not be had. */
const NAVIGATION_FAILED = '页面加载失败，请稍后重试';

/** The error page at `path`, shown when the next page's data could not be had. */
function navigationErrorPage(shown: PageState, path: string): PageState {
  const head = { ...shown.head, title: NAVIGATION_FAILED };
  return { path, routeId: null, page: 'error', params: {}, status: 500, data: null, head, now: shown.now, message: NAVIGATION_FAILED };
}

function isRenderablePage(page: PageState['page']): page is Exclude<PageState['page'], 'not-found' | 'error'> {
  return page !== 'not-found' && page !== 'error';
}

export function ClientApp({ initial, resources }: { initial: AppState; resources: ResourceStore }) {
  const [state, setState] = useState(initial);
  const [navigating, setNavigating] = useState(false);
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const latest = useRef(0);
  const updateUser = useCallback((user: PublicUser) => setState((previous) => ({ ...previous, user })), []);

  useEffect(() => {
    rememberPage(initial.page.path, { kind: 'page', page: initial.page });
    // A public marker that the page is interactive: tests and monitoring wait for it.
    document.documentElement.dataset.hydrated = 'true';
  }, [initial]);

  useEffect(() => prefetchOnHover(), []);

  // A page cached for everyone does not name the reader: the reader cookie does, once hydration has matched
  // the server's anonymous tree. The menu was already shown by CSS; from here React knows the reader too.
  useEffect(() => {
    const reader = readerFromCookieHeader(document.cookie);
    if (!reader) document.documentElement.removeAttribute(READER_ATTRIBUTE);
    else if (!initial.user) updateUser(reader);
  }, [initial, updateUser]);

  // Only a new location starts a navigation (the effect below). What else it reads (the page shown, how the
  // location changed, its hash) is read as it is then, and a change to any of it starts none.
  const startNavigation = useEffectEvent((pathname: string, search: string) => {
    // Parameters the page does not read (utm_*, from=singlemessage) do not make it another page.
    const path = pageAddress(pathname, search);
    if (path === state.page.path) return;
    const ticket = ++latest.current;
    setNavigating(true);
    fetchPageData(path, navigationType === 'POP')
      .then(async (response) => {
        if (response.kind === 'redirect') {
          navigate(response.location, { replace: true });
          return;
        }
        if (response.kind === 'document') {
          // Another site's page (a phone opening an article: the mobile site): a document load, in place of this entry.
          if (ticket === latest.current) window.location.replace(response.location);
          return;
        }
        if (isRenderablePage(response.page.page)) await loadPage(response.page.page);
        if (ticket !== latest.current) return;
        setState((previous) => ({ ...previous, page: response.page }));
        document.title = response.page.head.title;
        trackPageView(pathname + search);
        if (navigationType !== 'POP' && !hashTarget(location.hash)) window.scrollTo(0, 0);
      })
      .catch((error: unknown) => {
        if (ticket !== latest.current) return;
        // A page chunk failed (often a deploy under an open tab) or its data could not be had (429, 5xx, not
        // JSON): load the page the ordinary way, but not more than once a minute, so no answer can loop the tab.
        if (reloadAfterError(path)) return;
        // Past that, the portal's error page inside the layout at the new address (a way home, header and
        // footer stay), and the server's log is told.
        reportClientError(error);
        setState((previous) => ({ ...previous, page: navigationErrorPage(previous.page, path) }));
        document.title = NAVIGATION_FAILED;
      })
      .finally(() => {
        if (ticket === latest.current) setNavigating(false);
      });
  });
  useEffect(() => startNavigation(location.pathname, location.search), [location.pathname, location.search]);

  // A link with a #hash (/about#recruitment) scrolls to its target once the page showing it is on screen, also
  // when only the hash changed; the browser's own jump does not happen for client navigations.
  useEffect(() => {
    if (state.page.path !== location.pathname + location.search) return;
    hashTarget(location.hash)?.scrollIntoView();
  }, [location.pathname, location.search, location.hash, location.key, state.page.path]);

  return <PortalApp state={state} nonce="" resources={resources} navigating={navigating} updateUser={updateUser} />;
}
