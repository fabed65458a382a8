/**
 * Fresh cached pages answered in front of Express. A cached page is a few buffer writes (precompressed-page.ts),
 * and Express's own request handling (prototypes, router, a dozen middlewares) cost more than that on every
 * hit. This path answers exactly what the middleware chain and the page handler would for the same request —
 * request id and access log, metrics, security headers with a fresh CSP nonce, the page's cache
 * headers — reusing their functions; anything else goes to Express unchanged, carrying the lookup already made
 * so the page handler does not ask the cache twice.
 *
 * It only takes requests whose answer the chain decides from the path alone: GET/HEAD of a page route (a
 * signed-in reader's too, since pages are the same for everyone, except where rendersForReader says the page
 * handler must look at the session), not the search form's redirect, not a
 * phone asking for an article (sent to the mobile site), and an Accept-Encoding it can answer itself (none, or
 * one taking gzip). A page entry only exists for paths that reached the page handler, so no earlier route of
 * the chain (health, assets, feeds, /api, /login, /_data) can be skipped by it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import vary from 'vary';
import { matchRoute } from '../../shared/routes';
import { resolveSite } from '../../shared/sites';
import type { PageCache, PageLookup } from '../cache/page-cache';
import type { PolicySource } from '../cache/runtime-policy';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { logRequest, markBytesBefore, requestIdOf } from '../middleware/request-context';
import { newNonce, type SecurityHeaders } from '../middleware/security';
import { READER_COOKIE } from '../../shared/reader-cookie';
import { SESSION_COOKIE } from '../session';
import { acceptsGzip } from './accept-encoding';
import { sendCachedPage } from './cached-response';
import { isMobileUserAgent, variesByUserAgent } from './mobile-redirect';
import { searchFormRedirect } from './search-redirect';

export interface PageHitsDeps {
  pageCache: PageCache;
  cachePolicy: PolicySource;
  logger: Logger;
  metrics: Metrics;
  security: SecurityHeaders;
}

interface Candidate {
  key: string;
  path: string;
  routeId: string;
  page: string;
  siteId: number;
  variesByUserAgent: boolean;
}

/** Lookups made here for requests then passed to Express, for the page handler (lookupOnce). */
const looked = new WeakMap<IncomingMessage, { key: string; lookup: PageLookup | null }>();

/** The page cache's answer for `key`: the one this path already got for the request, or a new lookup. */
export function lookupOnce(req: IncomingMessage, key: string, pageCache: PageCache): Promise<PageLookup | null> {
  const earlier = looked.get(req);
  looked.delete(req);
  return earlier?.key === key ? Promise.resolve(earlier.lookup) : pageCache.lookup(key);
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
    deps.pageCache.lookup(candidate.key).then(
      (lookup) => {
        if (lookup?.freshness === 'fresh' && serveHit(deps, req, res, candidate, lookup, started)) return;
        looked.set(req, { key: candidate.key, lookup });
        next(req, res);
      },
      () => next(req, res),
    );
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

/** The request's cache key when this path may answer it; null for anything the middleware chain must see. */
function candidateOf(req: IncomingMessage, pageCache: PageCache): Candidate | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const target = req.url ?? '';
  if (!target.startsWith('/')) return null;
  const encoding = req.headers['accept-encoding'];
  if (encoding !== undefined && !acceptsGzip(encoding)) return null;
  const url = new URL(target, 'http://portal.invalid');
  if (searchFormRedirect(url)) return null;
  const match = matchRoute(url.pathname);
  if (match.kind !== 'page') return null;
  if (rendersForReader(req.headers.cookie, match.route.perReader === true)) return null;
  const byUserAgent = variesByUserAgent(match);
  if (byUserAgent && isMobileUserAgent(req.headers['user-agent'])) return null;
  const site = resolveSite(req.headers.host);
  const query = target.indexOf('?');
  return {
    key: pageCache.keyFor(site.id, url.pathname, url.searchParams, match.route.query ?? []),
    // What Express's req.path is: the path as sent, without the query.
    path: query < 0 ? target : target.slice(0, query),
    routeId: match.route.id,
    page: match.route.page ?? '',
    siteId: site.id,
    variesByUserAgent: byUserAgent,
  };
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
function serveHit(
  deps: PageHitsDeps,
  req: IncomingMessage,
  res: ServerResponse,
  candidate: Candidate,
  lookup: PageLookup,
  started: number,
): boolean {
  const finished = () => {
    logRequest(deps.logger, req, res, id, candidate.path, started);
    deps.metrics.requestFinished(res, candidate.routeId, candidate.siteId, started);
  };
  const id = requestIdOf(req);
  try {
    // In the order the middleware chain sets them.
    res.setHeader('X-Request-Id', id);
    const nonce = newNonce();
    deps.security.apply(res, nonce);
    if (candidate.variesByUserAgent) vary(res, 'User-Agent');
    res.once('finish', finished);
    const age = Math.max(0, Math.floor((Date.now() - lookup.storedAt) / 1000));
    sendCachedPage(req, res, lookup, 'HIT', age, deps.cachePolicy.page(candidate.page), nonce);
    return true;
  } catch (error) {
    if (res.headersSent) throw error;
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.removeListener('finish', finished);
    deps.logger.warn({ err: error, path: candidate.path }, 'cached hit failed; answering through the full chain');
    return false;
  }
}
