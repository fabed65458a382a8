/** Browser entry: read the server's state, load the page's module, hydrate, and take over navigation. */
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from '../shared/ui/router';
import type { AppState } from '../shared/app-state';
import { RESOURCE_ENDPOINT, STATE_SCRIPT_ID } from '../shared/app-state';
import { ARTICLE_BODY_SELECTOR, hasArticleBody, withArticleBody } from '../shared/article-body';
import type { ResourceName } from '../shared/resources';
import { RESOURCE_ATTRIBUTE } from '../shared/ui/data/Resource';
import { createResourceStore } from '../shared/ui/data/resource-store';
import { isChunkLoadError } from '../shared/chunk-reload';
import { reloadAfterError } from './navigation/error-reload';
import { ClientApp } from './navigation/ClientApp';
import { loadPage } from '../shared/pages/registry';
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

async function start(): Promise<void> {
  const state = readState();
  const page = state.page.page;
  if (page !== 'not-found' && page !== 'error') await loadPage(page);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from the document');
  // Hydrating in a transition makes it interruptible: React works in slices of a few milliseconds and yields to
  // the browser between them (input, paint), instead of one long task that grows with the page and the CPU load.
  // A click on a part not yet hydrated makes React hydrate that part at once and replay the click.
  startTransition(() => {
    hydrateRoot(
      root,
      <BrowserRouter>
        <ClientApp initial={state} resources={createResourceStore(fetchResource, resourceFromDocument)} />
      </BrowserRouter>,
    );
  });
}

start().catch((error: unknown) => {
  // The server-rendered page stays readable; a missing page chunk gets one guarded reload.
  if (isChunkLoadError(error)) reloadAfterError(window.location.pathname + window.location.search);
  else throw error;
});
