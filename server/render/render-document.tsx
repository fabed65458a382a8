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
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type LoaderFunctionArgs } from 'react-router-dom';
import type { AppState, PageState } from '../../shared/app-state';
import { PortalShell } from '../../shared/ui/App';
import type { ResourceStore } from '../../shared/ui/data/resource-store';
import { createPortalRoutes } from '../../shared/ui/routes';
import { DOCUMENT_END, documentAfterShell, documentHead } from './document';
import { FlushingDestination } from './flushing-destination';

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
 * The page state each query's request is for. The routes' server loader only hands it over: the portal's own
 * loaders (each page's loader.ts, server only) ran before the render, through the data cache, so the status is
 * known before the shell and a page that fails is answered by the error page, not half-streamed.
 */
const pageOfRequest = new WeakMap<Request, PageState>();

function serverPageLoader({ request }: LoaderFunctionArgs): PageState {
  const page = pageOfRequest.get(request);
  if (!page) throw new Error(`no page state for ${request.url}`);
  return page;
}

/** React Router's static handler over the portal's routes, made once: matching and loader calls per request. */
const staticHandler = createStaticHandler(createPortalRoutes(serverPageLoader));

/** A fixed origin for the query's request: routes match by path; the site is in the state. */
const QUERY_ORIGIN = 'http://portal.invalid';

/**
 * The React tree of a page's document (the bench's floor renders this one too): React Router's static router,
 * queried at the page's address, inside the portal shell. No hydration script of the router's own: the browser
 * builds its hydration data from the portal's state script (client/entry.tsx).
 */
function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * The address as React Router reads it: a path segment whose escapes are not UTF-8 (`/%C0%AF`, a not-found page)
 * gets its `%` escaped, so the router matches the same literal text it would fall back to anyway, without a
 * console.warn on stderr (outside the JSON log) for every such request a reader sends.
 */
function routerAddress(address: string): string {
  const queryAt = address.indexOf('?');
  const path = queryAt < 0 ? address : address.slice(0, queryAt);
  const safe = path
    .split('/')
    .map((segment) => (decodes(segment) ? segment : segment.replaceAll('%', '%25')))
    .join('/');
  return queryAt < 0 ? safe : safe + address.slice(queryAt);
}

export async function documentTree(state: AppState, nonce: string, resources: ResourceStore): Promise<ReactElement> {
  const request = new Request(QUERY_ORIGIN + routerAddress(state.page.path));
  pageOfRequest.set(request, state.page);
  const context = await staticHandler.query(request);
  if (context instanceof Response) throw new Error(`router answered ${state.page.path} with a ${context.status} response`);
  const router = createStaticRouter(staticHandler.dataRoutes, context);
  return (
    <PortalShell state={state} nonce={nonce} resources={resources}>
      <StaticRouterProvider router={router} context={context} hydrate={false} nonce={nonce} />
    </PortalShell>
  );
}

export async function renderDocument(options: RenderOptions, sink: DocumentSink): Promise<RenderOutcome> {
  let tree: ReactElement;
  try {
    tree = await documentTree(options.state, options.nonce, options.resources);
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
