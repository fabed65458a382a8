/**
 * React's own cost of a page, the floor a portal render is measured against: renderToString of the same tree the
 * server renders (StaticRouter + PortalApp) with the same state and block data, taken from a page the portal
 * served, in a loop with no HTTP, cache, loaders or streaming. The streamed floor renders the same tree with
 * renderToPipeableStream (what the portal uses) into a sink that drops the bytes: the difference between the two
 * is React's streaming renderer, not the portal.
 */
import { Writable } from 'node:stream';
import { createElement, type ReactElement } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { StaticRouter } from '../../client/navigation/router';
import { PortalApp } from '../../client/App';
import { createResourceStore } from '../../client/data/resource-store';
import { loadPage } from '../../shared/pages/registry';
import type { AppState } from '../../shared/app-state';
import { isResourceName } from '../../shared/resources';

interface PageInputs {
  state: AppState;
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
  return { state: JSON.parse(state[1]!) as AppState, resources };
}

export interface Floor {
  perSecond: number;
  /** CPU time of one renderToString, µs. */
  cpuMicros: number;
}

export type FloorKind = 'string' | 'stream';

export async function renderFloor(html: string, seconds: number, kind: FloorKind = 'string'): Promise<Floor> {
  const { state, resources } = pageInputs(html);
  const { page } = state.page;
  if (page !== 'not-found' && page !== 'error') await loadPage(page);
  const tree = () => {
    const store = createResourceStore(
      () => Promise.reject(new Error('every block is in the page')),
      (name) => (isResourceName(name) && resources.has(name) ? { found: true, value: resources.get(name) } : { found: false }),
    );
    return createElement(StaticRouter, {
      location: state.page.path,
      children: createElement(PortalApp, { state, nonce: 'floor', resources: store, navigating: false }),
    });
  };
  const render = kind === 'string' ? () => Promise.resolve(renderToString(tree()).length) : () => streamedLength(tree());
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

/** One streamed render of the tree to its end, the bytes counted and dropped. */
function streamedLength(tree: ReactElement): Promise<number> {
  return new Promise((resolve, reject) => {
    let length = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        length += chunk.length;
        callback();
      },
    });
    sink.once('finish', () => resolve(length));
    const stream = renderToPipeableStream(tree, {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: (error) => reject(error instanceof Error ? error : new Error(String(error))),
    });
  });
}
