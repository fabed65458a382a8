/**
 * A held page written into the chain's response as the hit path in front of Express writes it (edge/page-response.ts
 * writeHeld): a page read from the cache (HIT, STALE), or one rendered whole for this request and stored before it
 * is sent (MISS). Either way the reader gets the stored bytes with their own CSP, an ETag and a 304 when the copy
 * it holds is current.
 */
import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';
import type { CachePolicy } from '../cache/entry';
import type { CachedPage, HeldLookup } from '../cache/page-cache';
import type { PageContext } from './page-context';
import { writeHeld, type WrittenState } from '../edge/page-response';
import type { ClassifiedRequest } from '../edge/page-request';

export function serveHeld(
  context: PageContext,
  req: IncomingMessage,
  res: Response,
  held: { state: WrittenState; page: ClassifiedRequest; lookup: HeldLookup; policy: CachePolicy },
): void {
  const { state, page, lookup, policy } = held;
  const requestId = String(res.locals.requestId);
  writeHeld(req, res, context.deps.heads, { state, lookup, policy, requestId, varyUserAgent: page.varyUserAgent });
}

/** A page just rendered whole and stored (an expired page, a crawler's miss): sent as stored, a MISS of age 0. */
export function serveStored(
  context: PageContext,
  req: IncomingMessage,
  res: Response,
  stored: { page: ClassifiedRequest; value: CachedPage; tags: readonly string[]; policy: CachePolicy },
): void {
  const lookup: HeldLookup = { page: stored.value, freshness: 'fresh', tags: [...stored.tags], storedAt: Date.now() };
  serveHeld(context, req, res, { state: 'MISS', page: stored.page, lookup, policy: stored.policy });
}
