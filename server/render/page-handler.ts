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
import type { PublicUser } from '../../shared/app-state';
import { PRIVATE_NO_STORE } from '../cache/headers';
import type { PageLookup } from '../cache/page-cache';
import { sessionOf } from '../auth/session';
import { mobileDetailTarget } from '../edge/classify';
import { createPageContext, type DocumentRequest, type PageContext, type PageHandlerDeps } from './page-context';
import { sharedPageAction } from './page-decision';
import { classified, pageKind, pageRequestOf, requestHeadOf, routeLabel, takeLookup, type ClassifiedRequest } from '../edge/page-request';
import { notePage } from '../edge/page-response';
import { renderMiss } from './render-miss';
import { refreshInBackground, serveExpired } from './serve-cached';
import { serveHeld } from './serve-held';

export type { PageHandlerDeps } from './page-context';

/** What is known of the request's page: its request, and the lookup when the hit path already made it. */
interface Known {
  request: ClassifiedRequest;
  lookup?: PageLookup | null;
}

/**
 * The page request the hit path already classified (with its lookup), or, for a request it did not take (not a
 * page route, or a portal without it), the request classified here, once, with no lookup made yet.
 */
function knownOf(context: PageContext, req: Request): Known {
  const { pageCache, previewSecret } = context.deps;
  return takeLookup(req) ?? { request: classified(pageRequestOf(req.originalUrl, req.headers.host, pageCache), requestHeadOf(req, previewSecret)) };
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
      // For metrics and the log: a bounded route label, and the site the cache result belongs to.
      notePage(res, { route: routeLabel(page), siteId: page.site.id });
      if (page.redirect !== null) return res.redirect(302, page.redirect);
      if (page.varyUserAgent) res.vary('User-Agent');
      const mobile = mobileDetailTarget(page.address.match, page, context.deps.mobileDetailUrl, context.deps.previewSecret);
      // Never stored by a shared cache: the answer depends on the User-Agent.
      if (mobile) return res.setHeader('Cache-Control', PRIVATE_NO_STORE).redirect(302, mobile);
      const document: DocumentRequest = { page, nonce: String(res.locals.nonce), waitForAll: page.audience === 'crawler', user: null, account: null };
      // An editor's preview comes first: drafts, as a visitor sees the page, rendered for this request alone.
      if (page.audience === 'preview') return await renderMiss(context, res, { ...document, preview: true }, null);
      // A reader's own page needs their live session; a stale session cookie gets the shared page.
      const signedIn = page.ownPage ? sessionOf(req) : null;
      if (signedIn)
        return await renderForReader(
          context,
          req,
          res,
          document,
          signedIn.session.user,
          page.address.match.kind === 'page' && page.address.match.route.perReader === true,
        );
      await serveShared(context, req, res, document, known);
    } catch (error) {
      next(error);
    }
  };
}
