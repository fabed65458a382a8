/**
 * Page requests (docs/architecture.md, "How a request is served"): readers are served from the page cache when
 * it holds the page (HIT, or STALE with a background re-render); everything else is rendered by streaming SSR,
 * and a clean anonymous 200 render is stored as it streams. A signed-in reader gets the same shared page (their
 * menu comes from the reader cookie, their like/collect state after hydration); only a per-reader page is
 * rendered for them, fresh and private. This module only routes the request: the page request is worked out
 * once (edge/page-request.ts), the decision is page-decision.ts, each answer is its own unit, and every answer's
 * headers come from edge/page-response.ts.
 */
import type { Request, RequestHandler, Response } from 'express';
import { isbot } from 'isbot';
import type { PublicUser } from '../../shared/app-state';
import type { PageLookup } from '../cache/page-cache';
import { hasReaderCookie, sessionOf } from '../auth/session';
import { createPageContext, type DocumentRequest, type PageContext, type PageHandlerDeps } from './page-context';
import { rendersForReader } from '../edge/classify';
import { sharedPageAction } from './page-decision';
import { pageKind, pageRequestOf, routeLabel, takeLookup, type PageRequest } from '../edge/page-request';
import { notePage } from '../edge/page-response';
import { renderMiss } from './render-miss';
import { searchFormRedirect } from '../edge/search-redirect';
import { previewOf } from '../preview/preview-routes';
import { refreshInBackground, serveExpired } from './serve-cached';
import { serveHeld } from './serve-held';

export type { PageHandlerDeps } from './page-context';

/** What is known of the request's page: its request, and the lookup when the hit path already made it. */
interface Known {
  request: PageRequest;
  lookup?: PageLookup | null;
}

/** The page request the hit path already worked out (with its lookup), or a new one with no lookup made yet. */
function knownOf(context: PageContext, req: Request): Known {
  return takeLookup(req) ?? { request: pageRequestOf(req.originalUrl, req.headers.host, context.deps.pageCache) };
}

/** A page rendered for this signed-in reader alone: fresh, private, never stored (PASS). */
async function renderForReader(
  context: PageContext,
  req: Request,
  res: Response,
  document: DocumentRequest,
  reader: PublicUser,
  perReader: boolean,
): Promise<void> {
  if (!perReader) context.deps.rememberReader(req, res, reader);
  // Only the public profile goes into the render; the token stays in the session store.
  const { user_id, nickname, avatar } = reader;
  await renderMiss(context, res, { ...document, user: { user_id, nickname, avatar }, account: context.deps.accountFor(req, res) }, null);
}

/** The shared page: from the cache as page-decision.ts says, or rendered and stored (MISS). */
async function serveShared(context: PageContext, req: Request, res: Response, document: DocumentRequest, known: Known): Promise<void> {
  const { pageCache, cachePolicy } = context.deps;
  const page = document.page;
  const lookup = known.lookup !== undefined ? known.lookup : await pageCache.lookup(page.key);
  const action = sharedPageAction(lookup);
  if (action.kind === 'render') return renderMiss(context, res, document, page.key);
  const policy = cachePolicy.page(pageKind(page));
  if (action.kind === 'expired') return serveExpired(context, req, res, document, action.lookup, policy);
  serveHeld(context, req, res, { state: action.kind === 'hit' ? 'HIT' : 'STALE', page, lookup: action.lookup, policy });
  if (action.kind === 'stale') refreshInBackground(context, document, policy);
}

export function createPageHandler(deps: PageHandlerDeps): RequestHandler {
  const context = createPageContext(deps);
  return async (req, res, next) => {
    try {
      const known = knownOf(context, req);
      const page = known.request;
      const searchTarget = searchFormRedirect(page.address.pathname, page.params);
      if (searchTarget) return res.redirect(302, searchTarget);
      // For metrics and the log: a bounded route label, and the site the cache result belongs to.
      notePage(res, { route: routeLabel(page), siteId: page.site.id });
      const { match } = page.address;
      if (match.kind === 'redirect') return res.redirect(302, match.location);
      const document: DocumentRequest = {
        page,
        nonce: String(res.locals.nonce),
        waitForAll: isbot(req.headers['user-agent'] ?? ''),
        user: null,
        account: null,
      };
      // An editor's preview comes first: drafts, as a visitor sees the page, rendered for this request alone.
      if (previewOf(req, context.deps.previewSecret)) return await renderMiss(context, res, { ...document, preview: true }, null);
      const perReader = match.kind === 'page' && match.route.perReader === true;
      const signedIn = sessionOf(req);
      if (signedIn && rendersForReader({ signedIn: true, perReader, hasReaderCookie: hasReaderCookie(req) })) {
        return await renderForReader(context, req, res, document, signedIn.session.user, perReader);
      }
      await serveShared(context, req, res, document, known);
    } catch (error) {
      next(error);
    }
  };
}
