/**
 * A page rendered whole into a string, for the cache rather than for a reader: the background refresh of a
 * stale page and the re-render of an expired one. Anonymous and complete (every block in place), so the
 * result is either a clean page to store, or says why not.
 */
import { CallRecorder } from '../upstream/content-service';
import type { PageSources } from '../cache/page-cache';
import { pageSources, renderOptions, resourceLoads, stateFor, type DocumentRequest, type PageContext } from './page-context';
import { renderDocument, type DocumentSink } from './render-document';

/**
 * 'ok' only for a clean, cacheable 200 (its UTF-8 bytes); 'unavailable' when the upstream could not supply the page's data, so a
 * held copy should be served instead (stale-if-error); 'other' for anything else (a redirect, a 404 now, a
 * render that failed).
 */
export type WholeRender = { kind: 'ok'; html: Buffer; sources: PageSources } | { kind: 'unavailable' } | { kind: 'other' };

/** Collects the document's bytes; `failed` once the shell failed. */
function collectingSink(): { sink: DocumentSink; parts: Buffer[]; failed: () => boolean } {
  const parts: Buffer[] = [];
  let failed = false;
  const sink: DocumentSink = {
    start: () => undefined,
    write: (chunk) => parts.push(chunk),
    end: () => undefined,
    shellFailed: () => {
      failed = true;
    },
  };
  return { sink, parts, failed: () => failed };
}

/** `revalidateStale`: no reader waits (a background re-render), so stale answers are reloaded first (CallRecorder). */
export async function renderWhole(context: PageContext, request: DocumentRequest, revalidateStale = false): Promise<WholeRender> {
  const recorder = new CallRecorder(revalidateStale);
  const content = context.deps.content.forRequest(recorder);
  const built = await stateFor(context, { ...request, waitForAll: true, user: null, account: null }, content, recorder);
  if ('redirect' in built) return { kind: 'other' };
  const { page } = built.state;
  if (page.status === 503) return { kind: 'unavailable' };
  if (page.status !== 200) return { kind: 'other' };
  const collected = collectingSink();
  const outcome = await renderDocument(renderOptions(context, built, { ...request, waitForAll: true }, resourceLoads(content)), collected.sink);
  if (recorder.degraded) return { kind: 'unavailable' };
  if (collected.failed() || !outcome.clean) return { kind: 'other' };
  return { kind: 'ok', html: Buffer.concat(collected.parts), sources: pageSources(recorder, request.page.site, page.page) };
}
