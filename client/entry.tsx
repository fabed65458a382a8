/**
 * Browser entry: read the server's state, make React Router's browser router over the portal's routes with that
 * state as its hydration data (no loader runs for the page the server rendered), hydrate, and let the router own
 * navigation from there.
 */
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type HydrationState, type RouteObject } from 'react-router-dom';
import type { AppState, PageState } from '../shared/app-state';
import { RESOURCE_ENDPOINT, STATE_SCRIPT_ID } from '../shared/app-state';
import { ARTICLE_BODY_SELECTOR, hasArticleBody, withArticleBody } from '../shared/article-body';
import type { ResourceName } from '../shared/resources';
import { RESOURCE_ATTRIBUTE } from '../shared/ui/data/Resource';
import { createResourceStore } from '../shared/ui/data/resource-store';
import { isChunkLoadError } from '../shared/chunk-reload';
import { SCRIPT_CLASS } from '../shared/preferences';
import { reloadAfterError } from './navigation/error-reload';
import { ClientShell } from './navigation/ClientShell';
import { pageLoader, watchHistoryNavigations } from './navigation/page-loader';
import { followAppLinks } from './navigation/app-links';
import { rememberPage } from './navigation/page-data';
import { loadPage } from '../shared/pages/registry';
import { createPortalRoutes } from '../shared/ui/routes';
import { ServerRenderedError } from '../shared/ui/RouteError';
import './styles/main.css';

function readState(): AppState {
  const element = document.getElementById(STATE_SCRIPT_ID);
  if (!element?.textContent) throw new Error('portal state missing from the document');
  const state = JSON.parse(element.textContent) as AppState;
  // The article body is in the document only (shared/article-body.ts): read it back before hydrating.
  if (!hasArticleBody(state.page)) return state;
  const body = document.querySelector(ARTICLE_BODY_SELECTOR);
  return { ...state, page: withArticleBody(state.page, body?.innerHTML ?? '') };
}

function resourceFromDocument(name: ResourceName): { found: true; value: unknown } | { found: false } {
  const element = document.querySelector(`script[${RESOURCE_ATTRIBUTE}="${name}"]`);
  if (!element?.textContent) return { found: false };
  return { found: true, value: JSON.parse(element.textContent) };
}

async function fetchResource(name: ResourceName): Promise<unknown> {
  const response = await fetch(`${RESOURCE_ENDPOINT}/${name}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`resource ${name}: HTTP ${response.status}`);
  return response.json();
}

/**
 * What React Router's hydration needs, from the portal's state script: the server's page state as the loader data
 * of every route matched here (so none loads again), or, for a page the server answered with its route's error
 * boundary (a 500, server/render/page-router.ts), that error at the deepest route.
 */
function hydrationData(routes: RouteObject[], page: PageState): HydrationState {
  const matches = matchRoutes(routes, window.location) ?? [];
  const loaded = matches.flatMap(({ route }) => (route.loader && route.id ? [route.id] : []));
  if (page.status === 500) return { errors: Object.fromEntries(loaded.slice(-1).map((id) => [id, new ServerRenderedError(500)])) };
  return { loaderData: Object.fromEntries(loaded.map((id) => [id, page])) };
}

async function start(): Promise<void> {
  const state = readState();
  const page = state.page.page;
  if (page !== 'not-found' && page !== 'error') await loadPage(page);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from the document');
  rememberPage(state.page.path, { kind: 'page', page: state.page });
  watchHistoryNavigations();
  const routes = createPortalRoutes(() => pageLoader);
  const router = createBrowserRouter(routes, { hydrationData: hydrationData(routes, state.page) });
  followAppLinks(router);
  // Hydrating in a transition makes it interruptible: React works in slices of a few milliseconds and yields to
  // the browser between them (input, paint), instead of one long task that grows with the page and the CPU load.
  // A click on a part not yet hydrated makes React hydrate that part at once and replay the click.
  startTransition(() => {
    hydrateRoot(root, <ClientShell initial={state} resources={createResourceStore(fetchResource, resourceFromDocument)} router={router} />);
  });
}

start().catch((error: unknown) => {
  // The server-rendered page stays readable; a missing page chunk gets one guarded reload.
  if (isChunkLoadError(error) && reloadAfterError(window.location.pathname + window.location.search)) return;
  // No hydration is coming: the head script's class goes, so the page is the no-script page, whose menu and search
  // work without the bundle, instead of a folded menu behind a dead 菜单 button (decision 0070).
  document.documentElement.classList.remove(SCRIPT_CLASS);
  if (!isChunkLoadError(error)) throw error;
});
