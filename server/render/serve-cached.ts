/**
 * The shared page answered from the page cache inside the chain (the hit path in front of Express answers
 * fresh pages itself): a fresh page (HIT), a page within grace (STALE, one background re-render), and a page
 * past grace, rendered again before anything is sent so a failed upstream can still be answered with the
 * held copy (stale-if-error; docs/cache.md).
 */
import type { Request, Response } from 'express';
import type { CachePolicy } from '../cache/entry';
import type { PageLookup } from '../cache/page-cache';
import { newNonce } from '../edge/security';
import type { DocumentRequest, PageContext } from './page-context';
import { ageOf } from '../edge/page-response';
import { renderMiss } from './render-miss';
import { renderWhole } from './render-whole';
import { serveHeld, serveStored } from './serve-held';

/** One re-render of a stale page, in the background, under the cache's refresh lock (one per key across instances). */
export function refreshInBackground(context: PageContext, request: DocumentRequest, policy: CachePolicy): void {
  const { pageCache, logger } = context.deps;
  const { key } = request.page;
  const nonce = newNonce();
  pageCache.refresh(
    key,
    async () => {
      const rendered = await renderWhole(context, { ...request, nonce }, true);
      if (rendered.kind === 'ok') await pageCache.store(key, policy, rendered.html, nonce, rendered.sources);
    },
    (error) => logger.error({ err: error, key }, 'background page refresh failed'),
  );
}

/**
 * Past grace: render again (whole, not streamed, so a failure can still fall back). Data missing upstream →
 * the held copy is served (stale-if-error); a clean render → stored and sent; anything else (the page is now
 * a 404, say) → the streaming path decides.
 */
export async function serveExpired(
  context: PageContext,
  req: Request,
  res: Response,
  request: DocumentRequest,
  lookup: PageLookup,
  policy: CachePolicy,
): Promise<void> {
  const { key } = request.page;
  const rendered = await renderWhole(context, request);
  if (rendered.kind === 'unavailable') {
    context.deps.logger.warn({ key, age: ageOf(lookup) }, 'upstream unavailable: serving an expired page (stale-if-error)');
    serveHeld(context, req, res, { state: 'STALE', page: request.page, lookup, policy });
    return;
  }
  if (rendered.kind === 'other') {
    await renderMiss(context, res, request, key);
    return;
  }
  const page = await context.deps.pageCache.store(key, policy, rendered.html, request.nonce, rendered.sources);
  // A page that could not be sealed is not stored: the streaming path renders it for this reader.
  if (!page) {
    await renderMiss(context, res, request, key);
    return;
  }
  serveStored(context, req, res, { page: request.page, value: page, tags: rendered.sources.tags, policy });
}
