/**
 * Streams one document with renderToPipeableStream (React DOM's Bun build, into a destination that takes strings:
 * flushing-destination.ts says why). The status is fixed before the shell flushes; readers get
 * the shell as soon as it is ready and slow blocks behind <Suspense> after it, crawlers get the finished
 * document (onAllReady). What React writes in one flush reaches the sink as one buffer (compression is flushed
 * per write by the sink), a render past its deadline is aborted, and an error after the shell is logged while
 * the stream still ends cleanly.
 */
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server.bun';
import { createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from 'react-router-dom';
import type { AppState } from '../../shared/app-state';
import { PortalShell } from '../../shared/ui/App';
import type { ResourceStore } from '../../shared/ui/data/resource-store';
import { DOCUMENT_END, documentAfterShell, documentHead } from './document';
import { FlushingDestination } from './flushing-destination';
import { dataRoutes } from './page-router';

export interface DocumentSink {
  /** Called once, before the first byte: the place to set status and headers. */
  start(status: number): void;
  /** The bytes of one flush, in order; a new buffer every time, the sink's to keep (no copy needed). */
  write(chunk: Buffer): void;
  /** The document is complete; `clean` is false if any part of the render failed or was aborted. */
  end(clean: boolean): void;
  /** The shell itself failed: nothing was written, the caller sends the error page. */
  shellFailed(error: unknown): void;
}

export interface RenderOptions {
  state: AppState;
  /** React Router's context of the page's query (page-router.ts): what the static router renders. */
  router: StaticHandlerContext;
  nonce: string;
  resources: ResourceStore;
  styles: readonly string[];
  preloads: readonly string[];
  entryScript: string;
  canonicalUrl: string;
  /** The site's visit statistics script, when its host has a statistics id. */
  visitStatsScript: string | null;
  /** Wait for every Suspense boundary before the first byte (crawlers, cache refreshes). */
  waitForAll: boolean;
  timeoutMs: number;
  onRenderError: (error: unknown) => void;
}

export interface RenderOutcome {
  /** True when the stream completed without errors or an abort: the only renders worth caching. */
  clean: boolean;
  /** Aborted at the render deadline (its pending blocks were left to the browser). */
  aborted: boolean;
}

/**
 * The React tree of a page's document (the bench's floor renders this one too): React Router's static router
 * over the handler's context of the page's query (page-router.ts), inside the portal shell. No hydration script
 * of the router's own: the browser builds its hydration data from the portal's state script (client/entry.tsx).
 */
export function documentTree(state: AppState, nonce: string, resources: ResourceStore, context: StaticHandlerContext): ReactElement {
  const router = createStaticRouter(dataRoutes, context);
  return (
    <PortalShell state={state} nonce={nonce} resources={resources}>
      <StaticRouterProvider router={router} context={context} hydrate={false} nonce={nonce} />
    </PortalShell>
  );
}

export async function renderDocument(options: RenderOptions, sink: DocumentSink): Promise<RenderOutcome> {
  let tree: ReactElement;
  try {
    tree = documentTree(options.state, options.nonce, options.resources, options.router);
  } catch (error) {
    sink.shellFailed(error);
    return { clean: false, aborted: false };
  }
  return streamDocument(tree, options, sink);
}

function streamDocument(tree: ReactElement, options: RenderOptions, sink: DocumentSink): Promise<RenderOutcome> {
  return new Promise((resolve) => {
    let clean = true;
    let aborted = false;
    let started = false;

    const flush = () => {
      if (started) return;
      started = true;
      sink.start(options.state.page.status);
      let entryWritten = false;
      const writeEntry = () => {
        if (entryWritten) return;
        entryWritten = true;
        out.add(documentAfterShell(options.entryScript, options.nonce));
      };
      const out = new FlushingDestination(
        (bytes) => sink.write(bytes),
        (streamClean) => {
          clearTimeout(deadline);
          clean &&= streamClean;
          // A render with nothing left to stream ends inside pipe(), before the entry script was written.
          writeEntry();
          out.add(DOCUMENT_END);
          out.release();
          sink.end(clean);
          resolve({ clean, aborted });
        },
      );
      out.add(documentHead(options));
      // pipe() writes the ready shell synchronously, so the entry script lands right after it.
      stream.pipe(out);
      writeEntry();
      out.release();
    };

    const stream = renderToPipeableStream(tree, {
      nonce: options.nonce,
      // React outlines big finished boundaries to paint the shell sooner; a document sent whole has no such
      // shell to paint first, and crawlers without script must find the content in place.
      ...(options.waitForAll ? { progressiveChunkSize: Number.MAX_SAFE_INTEGER } : {}),
      onShellReady() {
        if (!options.waitForAll) flush();
      },
      onAllReady() {
        if (options.waitForAll) flush();
      },
      onShellError(error) {
        clearTimeout(deadline);
        clean = false;
        sink.shellFailed(error);
        resolve({ clean, aborted });
      },
      onError(error) {
        clean = false;
        options.onRenderError(error);
      },
    });

    const deadline = setTimeout(() => {
      clean = false;
      aborted = true;
      stream.abort(new Error(`render exceeded ${options.timeoutMs} ms`));
    }, options.timeoutMs);
  });
}
