/**
 * The browser's root: the portal shell (with the reader, who may be refreshed without a reload) around React
 * Router's data router, and what the page does once, after hydration: the public "interactive" marker, hover
 * prefetch, and the reader cookie of a page cached for everyone.
 */
import { useCallback, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { createBrowserRouter } from 'react-router-dom';
import type { AppState, PublicUser } from '../../shared/app-state';
import { READER_ATTRIBUTE, readerFromCookieHeader } from '../../shared/reader-cookie';
import { PortalShell } from '../../shared/ui/App';
import type { ResourceStore } from '../../shared/ui/data/resource-store';
import { isPageState } from '../../shared/ui/App';
import { trackPageView } from '../../shared/visit-stats';
import { prefetchOnHover } from './prefetch';

type BrowserRouter = ReturnType<typeof createBrowserRouter>;

export function ClientShell({ initial, resources, router }: { initial: AppState; resources: ResourceStore; router: BrowserRouter }) {
  const [state, setState] = useState(initial);
  const updateUser = useCallback((user: PublicUser) => setState((previous) => ({ ...previous, user })), []);

  useEffect(() => {
    // A public marker that the page is interactive: tests and monitoring wait for it.
    document.documentElement.dataset.hydrated = 'true';
  }, []);

  useEffect(() => prefetchOnHover(), []);

  // Each navigation that ends on a new address: the document's title and the site's page view. (Announcing it
  // and moving focus is shared/ui/blocks/NavigationAnnouncer.tsx's, in the tree.)
  useEffect(() => {
    let shown = router.state.location.pathname + router.state.location.search;
    return router.subscribe((routerState) => {
      if (routerState.navigation.state !== 'idle') return;
      const path = routerState.location.pathname + routerState.location.search;
      if (path === shown) return;
      shown = path;
      const page = Object.values(routerState.loaderData).filter(isPageState).at(-1);
      if (page) document.title = page.head.title;
      // A flag switched since the document was made (grey mode) holds from this page on, back and forward too.
      const greyMode = page?.greyMode;
      if (greyMode) setState((previous) => (previous.layout.greyMode === greyMode ? previous : { ...previous, layout: { ...previous.layout, greyMode } }));
      trackPageView(path);
    });
  }, [router]);

  // A page cached for everyone does not name the reader: the reader cookie does, once hydration has matched
  // the server's anonymous tree. The menu was already shown by CSS; from here React knows the reader too.
  useEffect(() => {
    const reader = readerFromCookieHeader(document.cookie);
    if (!reader) document.documentElement.removeAttribute(READER_ATTRIBUTE);
    else if (!initial.user) updateUser(reader);
  }, [initial, updateUser]);

  return (
    <PortalShell state={state} nonce="" resources={resources} updateUser={updateUser}>
      <RouterProvider router={router} />
    </PortalShell>
  );
}
