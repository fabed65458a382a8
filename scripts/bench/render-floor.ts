/**
 * React's own cost of a page, the floor a portal render is measured against: renderToString of the same tree the
 * server renders (StaticRouter + PortalApp) with the same state and block data, taken from a page the portal
 * served, in a loop with no HTTP, cache, loaders or streaming. The streamed floor renders the same page with the
 * portal's own renderDocument (React's stream renderer, the document around it) into a sink that drops the bytes:
 * the difference between the two is streaming, not the portal's request handling.
 */
import type { ReactElement } from 'react';
import type { StaticHandlerContext } from 'react-router-dom';
import { renderToString } from 'react-dom/server';
import { createResourceStore, type ResourceStore } from '../../shared/ui/data/resource-store';
import { loadPage } from '../../shared/pages/registry';
import type { AppState } from '../../shared/app-state';
import { isResourceName } from '../../shared/resources';
import { documentTree, renderDocument, type RenderOptions } from '../../server/render/render-document';
import { contextOfLoadedPage } from '../../server/render/page-router';

export interface PageInputs {
  state: AppState;
  /** React Router's context for the page, made once: the floor is React's render, not the router's query. */
  router: StaticHandlerContext;
  resources: Map<string, unknown>;
}

/** The hydration state and the blocks' data, as the document carries them for the browser. */
export function pageInputs(html: string): PageInputs {
  const state = /<script type="application\/json" id="__PORTAL_STATE__"[^>]*>([\s\S]*?)<\/script>/.exec(html);
  if (!state) throw new Error('the page has no hydration state');
  const resources = new Map<string, unknown>();
  for (const [, name, json] of html.matchAll(/<script type="application\/json" data-resource="([^"]+)"[^>]*>([\s\S]*?)<\/script>/g)) {
    resources.set(name!, JSON.parse(json!));
  }
  const parsed = JSON.parse(state[1]!) as AppState;
  return { state: parsed, router: contextOfLoadedPage(parsed.page), resources };
}

/** Loads the page's module (pages are loaded on first use), so its tree renders without suspending on it. */
export async function loadPageOf({ state }: PageInputs): Promise<void> {
  const { page } = state.page;
  if (page !== 'not-found' && page !== 'error') await loadPage(page);
}

/** A resource store holding every block's data of the page: nothing is fetched. */
export function storeOf({ resources }: PageInputs): ResourceStore {
  return createResourceStore(
    () => Promise.reject(new Error('every block is in the page')),
    (name) => (isResourceName(name) && resources.has(name) ? { found: true, value: resources.get(name) } : { found: false }),
  );
}

/** The tree the server renders for the page (render-document.tsx), with a fresh store. */
export function pageTree(inputs: PageInputs, nonce: string): ReactElement {
  return documentTree(inputs.state, nonce, storeOf(inputs), inputs.router);
}

/** The options renderDocument takes for the page, as a reader's render (not waiting for every block). */
export function documentOptions(inputs: PageInputs, nonce: string, waitForAll = false): RenderOptions {
  return {
    state: inputs.state,
    router: inputs.router,
    nonce,
    resources: storeOf(inputs),
    styles: ['/assets/entry.css'],
    preloads: ['/assets/entry.js'],
    entryScript: '/assets/entry.js',
    canonicalUrl: `https://www.qnnews.cn${inputs.state.page.path}`,
    visitStatsScript: null,
    waitForAll,
    timeoutMs: 10_000,
    // An error in a block makes the render's outcome unclean, which every caller checks.
    onRenderError: () => undefined,
  };
}

export interface Floor {
  perSecond: number;
  /** CPU time of one render, µs. */
  cpuMicros: number;
}

export type FloorKind = 'string' | 'stream';

export async function renderFloor(html: string, seconds: number, kind: FloorKind = 'string'): Promise<Floor> {
  const inputs = pageInputs(html);
  await loadPageOf(inputs);
  const render = kind === 'string' ? async () => renderToString(pageTree(inputs, 'floor')).length : () => streamedLength(inputs);
  for (let warm = 0; warm < 30; warm++) await render();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let renders = 0;
  while (performance.now() - started < seconds * 1000) {
    await render();
    renders++;
  }
  const used = process.cpuUsage(cpu);
  return { perSecond: renders / ((performance.now() - started) / 1000), cpuMicros: (used.user + used.system) / renders };
}

/** One streamed render of the page's document to its end, the bytes counted and dropped. */
function streamedLength(inputs: PageInputs): Promise<number> {
  return new Promise((resolve, reject) => {
    let length = 0;
    void renderDocument(documentOptions(inputs, 'floor'), {
      start: () => undefined,
      write: (chunk) => {
        length += chunk.length;
      },
      end: (clean) => (clean ? resolve(length) : reject(new Error('the streamed floor render was not clean'))),
      shellFailed: reject,
    });
  });
}
