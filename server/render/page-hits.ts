/**
 * Fresh cached pages answered in front of Express. A cached page is one stored buffer written as it is
 * (server/cache/stored-page.ts), and Express's own request handling (prototypes, router, a dozen middlewares)
 * cost more than that on every hit. This path answers exactly what the middleware chain and the page handler
 * would for the same request — request id and access log, metrics, security headers with the page's own CSP
 * (its scripts' hashes), the page's cache headers (page-response.ts, the one response path both use); anything
 * else goes to Express unchanged,
 * carrying the page request and the lookup already made (page-request.ts), so the page handler neither works
 * out the page address nor asks the cache a second time.
 *
 * It only takes requests whose answer the chain decides from the path alone: GET/HEAD of a page route (a
 * signed-in reader's too, since pages are the same for everyone, except where rendersForReader says the page
 * handler must look at the session), not the search form's redirect, not a
 * phone asking for an article (sent to the mobile site). A page entry only exists for paths that reached the page handler, so no earlier route of
 * the chain (health, assets, feeds, /api, /login, /_data) can be skipped by it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isWholeLookup, type HeldLookup, type PageCache } from '../cache/page-cache';
import type { PolicySource } from '../cache/runtime-policy';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { logRequest, markBytesBefore, requestIdOf } from '../middleware/request-context';
import type { SecurityHeaders } from '../middleware/security';
import { READER_COOKIE } from '../../shared/reader-cookie';
import { SESSION_COOKIE } from '../session';
import { pageFormFor } from './accept-encoding';
import { isMobileUserAgent, variesByUserAgent } from './mobile-redirect';
import { carryLookup, pageKind, pageRequestOf, routeLabel, type PageRequest } from './page-request';
import { notePage, writeHeld } from './page-response';
import { searchFormRedirect } from './search-redirect';

export interface PageHitsDeps {
  pageCache: PageCache;
  cachePolicy: PolicySource;
  logger: Logger;
  metrics: Metrics;
  security: SecurityHeaders;
}

interface Candidate {
  request: PageRequest;
  /** What Express's req.path is: the path as sent, without the query. */
  path: string;
  variesByUserAgent: boolean;
}

export function pageHits(deps: PageHitsDeps, next: RequestListener): RequestListener {
  return (req, res) => {
    const started = performance.now();
    markBytesBefore(req);
    const candidate = candidateOrNull(req, deps.pageCache);
    if (!candidate) {
      next(req, res);
      return;
    }
    const answer = (lookup: HeldLookup | null) => {
      if (lookup?.freshness === 'fresh' && serveHit(deps, req, res, candidate, lookup, started)) return;
      // A page read in one form only is no use to the chain, which may answer in the other: it reads it again.
      carryLookup(req, { request: candidate.request, lookup: lookup === null || isWholeLookup(lookup) ? lookup : undefined });
      next(req, res);
    };
    // A page in L1 is answered in this turn, without a promise; Redis's answer is awaited, in the one form sent.
    const now = deps.pageCache.lookupNow(candidate.request.key);
    if (now !== undefined) answer(now);
    else deps.pageCache.lookupForm(candidate.request.key, pageFormFor(req.headers['accept-encoding'])).then(answer, () => next(req, res));
  };
}

/** Whatever this path cannot make sense of is the chain's to answer (its error handling included). */
function candidateOrNull(req: IncomingMessage, pageCache: PageCache): Candidate | null {
  try {
    return candidateOf(req, pageCache);
  } catch {
    return null;
  }
}

/** The request's page when this path may answer it; null for anything the middleware chain must see. */
function candidateOf(req: IncomingMessage, pageCache: PageCache): Candidate | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const target = req.url ?? '';
  if (!target.startsWith('/')) return null;
  const request = pageRequestOf(target, req.headers.host, pageCache);
  if (searchFormRedirect(request.address.pathname, request.params)) return null;
  const { match } = request.address;
  if (match.kind !== 'page') return null;
  if (rendersForReader(req.headers.cookie, match.route.perReader === true)) return null;
  const byUserAgent = variesByUserAgent(match);
  if (byUserAgent && isMobileUserAgent(req.headers['user-agent'])) return null;
  const query = target.indexOf('?');
  return { request, path: query < 0 ? target : target.slice(0, query), variesByUserAgent: byUserAgent };
}

/**
 * A session cookie on a per-reader page, or without the reader cookie (a session from before that cookie
 * existed): the page handler decides, with the session, whether this reader gets a render of their own.
 */
function rendersForReader(cookies: string | undefined, perReader: boolean): boolean {
  if (!cookies?.includes(`${SESSION_COOKIE}=`)) return false;
  return perReader || !cookies.includes(`${READER_COOKIE}=`);
}

/** Answers with the held page; false (nothing sent, no header left behind) if that failed before the headers went. */
function serveHit(deps: PageHitsDeps, req: IncomingMessage, res: ServerResponse, candidate: Candidate, lookup: HeldLookup, started: number): boolean {
  let sent: ReturnType<typeof writeHeld> | null = null;
  const { request } = candidate;
  const route = routeLabel(request);
  const finished = () => {
    logRequest(deps.logger, req, res, id, req.url ?? candidate.path, started, sent && { ...sent, route });
    deps.metrics.requestFinished(res, route, request.site.id, started, undefined, sent?.cache);
  };
  const id = requestIdOf(req);
  try {
    // In the order the middleware chain sets them: the request id, the security headers, the mobile check's Vary.
    const headers = ['X-Request-Id', id];
    deps.security.appendShared(headers, lookup.page.scripts);
    res.once('finish', finished);
    notePage(res, { route, siteId: request.site.id });
    sent = writeHeld(req, res, lookup, deps.cachePolicy.page(pageKind(request)), headers, candidate.variesByUserAgent);
    return true;
  } catch (error) {
    if (res.headersSent) throw error;
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.removeListener('finish', finished);
    // writeHead may have set these before it refused a header: the chain sets its own.
    res.statusCode = 200;
    res.statusMessage = '';
    deps.logger.warn({ err: error, path: candidate.path }, 'cached hit failed; answering through the full chain');
    return false;
  }
}
