/**
 * A page rendered for this request and streamed (docs/architecture.md, "Streaming"): MISS for an anonymous
 * reader, whose clean 200 is stored as it streams; PASS for a page rendered for one signed-in reader, never
 * stored. Its headers (edge/page-response.ts) go out with the shell; a shell that fails becomes the error page.
 * An anonymous render that waits for every block before its first byte (a crawler's) has nothing to stream
 * early: it is stored first and sent as stored (the same bytes and CSP as its later HITs, so shareable at once).
 */
import type { Response } from 'express';
import type { AppState } from '../../shared/app-state';
import type { RenderOutcome } from '../platform/metrics';
import { CallRecorder } from '../upstream/content-service';
import type { ResourceLoads } from './downstream-caching';
import { maySharedCachesKeep } from './downstream-caching';
import { sendErrorPage } from './error-page';
import { pageSources, pageTags, renderOptions, resourceLoads, stateFor, type DocumentRequest, type PageContext } from './page-context';
import type { CachedPage } from '../cache/page-cache';
import { notePage, setHeaders, streamedHeaders, type Sharing } from '../edge/page-response';
import { renderDocument, type DocumentSink } from './render-document';
import { serveStored } from './serve-held';

interface Streaming {
  context: PageContext;
  request: DocumentRequest;
  /** Where the page is stored if it ends clean; null for a page rendered for one reader (PASS). */
  key: string | null;
  state: AppState;
  recorder: CallRecorder;
  loads: ResourceLoads;
  started: number;
}

/** Whether this render may be offered to shared caches, decided the moment its headers go out. */
function sharingOf(streaming: Streaming, status: number): Sharing {
  const { context, key, recorder, loads, state, request } = streaming;
  const shared = maySharedCachesKeep({ cacheable: key !== null, status, degraded: recorder.degraded, resourcesSettled: loads.settled, perResponse: true });
  if (!shared) return null;
  return { policy: context.deps.cachePolicy.page(state.page.page), tags: pageTags(recorder, request.page.site, state.page.page) };
}

/**
 * Stores the rendered page once it ended clean, from every call answered cleanly, as an anonymous 200; the page
 * as stored, or null when it is not.
 */
async function storeIfCacheable(streaming: Streaming, html: Buffer[] | null, clean: boolean): Promise<CachedPage | null> {
  const { context, key, recorder, state, request } = streaming;
  if (!html || !key || !clean || recorder.degraded) return null;
  const { pageCache, cachePolicy, logger } = context.deps;
  try {
    const page = await pageCache.compress(Buffer.concat(html), request.nonce);
    if (!page) {
      logger.warn({ key }, 'page not stored: its nonce is left outside the scripts the portal writes');
      return null;
    }
    // Issued before the response ends: the next request on this instance queues behind this write on the
    // same Redis connection, so it finds the page.
    pageCache
      .put(key, cachePolicy.page(state.page.page), page, pageSources(recorder, request.page.site, state.page.page))
      .catch((error: unknown) => logger.warn({ err: error, key }, 'page store failed'));
    return page;
  } catch (error) {
    logger.warn({ err: error, key }, 'page compression failed');
    return null;
  }
}

/** The rendered response's headers: MISS or PASS, never shared (it runs by this response's nonce). */
function setRenderedHeaders(streaming: Streaming, res: Response, status: number): void {
  res.status(status).type('html');
  setHeaders(
    res,
    streamedHeaders({
      state: streaming.key ? 'MISS' : 'PASS',
      status,
      sharing: sharingOf(streaming, status),
      upstreamMs: streaming.recorder.upstreamMs,
      renderMs: performance.now() - streaming.started,
      preview: streaming.request.preview === true,
    }),
  );
}

/**
 * An anonymous render waiting for every block (a crawler's): kept whole, then stored and sent as stored (its
 * hashes' CSP, public); a render that is not stored is sent as rendered, with its nonce, private.
 */
function wholeSink(streaming: Streaming, res: Response, onShellFailed: (error: unknown) => void): DocumentSink {
  const parts: Buffer[] = [];
  let status = 200;
  return {
    start: (rendered) => {
      status = rendered;
    },
    write: (chunk) => parts.push(chunk),
    end: (clean) => {
      void storeIfCacheable(streaming, status === 200 ? parts : null, clean).then((page) => {
        const { context, recorder, state, request } = streaming;
        if (page) {
          const tags = pageTags(recorder, request.page.site, state.page.page);
          serveStored(context, res.req, res, { page: request.page, value: page, tags, policy: context.deps.cachePolicy.page(state.page.page) });
          return;
        }
        setRenderedHeaders(streaming, res, status);
        res.end(Buffer.concat(parts));
      });
    },
    shellFailed: onShellFailed,
  };
}

/** Writes the document to the response, keeping a copy of its bytes when it may be stored. */
function streamingSink(streaming: Streaming, res: Response, onShellFailed: (error: unknown) => void): DocumentSink {
  const capture = streaming.key !== null && streaming.state.page.status === 200 ? ([] as Buffer[]) : null;
  return {
    start: (status) => setRenderedHeaders(streaming, res, status),
    write: (chunk) => {
      res.write(chunk);
      // The sink's own buffer: kept as it is, never written to again.
      capture?.push(chunk);
    },
    end: (clean) => {
      void storeIfCacheable(streaming, capture, clean).finally(() => res.end());
    },
    shellFailed: onShellFailed,
  };
}

function outcomeOf(shellFailed: boolean, rendered: { clean: boolean; aborted: boolean }): RenderOutcome {
  if (shellFailed) return 'shell-error';
  if (rendered.aborted) return 'aborted';
  return rendered.clean ? 'clean' : 'error';
}

export async function renderMiss(context: PageContext, res: Response, request: DocumentRequest, key: string | null): Promise<void> {
  const started = performance.now();
  const recorder = new CallRecorder();
  const content = request.preview ? context.deps.content.forPreview(recorder) : context.deps.content.forRequest(recorder);
  const built = await stateFor(context, request, content, recorder);
  if ('redirect' in built) {
    res.redirect(built.permanent ? 301 : 302, built.redirect);
    return;
  }
  const streaming: Streaming = { context, request, key, state: built.state, recorder, loads: resourceLoads(content), started };
  let shellError: unknown = null;
  let shellFailed = false;
  const onShellFailed = (error: unknown) => {
    shellFailed = true;
    shellError = error;
  };
  const sink = request.waitForAll && key !== null ? wholeSink(streaming, res, onShellFailed) : streamingSink(streaming, res, onShellFailed);
  const rendered = await renderDocument(renderOptions(context, built, request, streaming.loads), sink);
  // The access log's upstream time: what this request's loaders waited for (cached calls cost nothing).
  notePage(res, { upstreamMs: recorder.upstreamMs });
  context.deps.onRender?.(String(res.locals.metricsRoute ?? 'other'), (performance.now() - started) / 1000, outcomeOf(shellFailed, rendered));
  if (!shellFailed) return;
  context.deps.logger.error({ err: shellError, path: request.page.address.pathname }, 'shell failed; sending the error page');
  await sendErrorPage(context, res, request, built, shellError);
}
