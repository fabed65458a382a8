/**
 * Fresh cached pages answered in front of Express: a cached page is one stored buffer written as it is, and
 * Express's own handling cost more than that on every hit. It answers through the same functions as the chain
 * (page-response.ts for the headers and the held page, request-context.ts for the request id and access log,
 * the metrics). Each GET/HEAD of a page route is classified here, once (classify.ts): only a request the shared
 * copy answers (sharedCopyAnswers: no preview, no reader's own page, no redirect, no phone asking for an
 * article) is answered from the cache. Anything else goes to Express with its classified page request and the
 * lookup already made (page-request.ts). A page entry exists only for paths that reached the page handler, so no earlier route of
 * the chain (health, assets, feeds, /api, /login, /_data) can be skipped by it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isWholeLookup, type HeldLookup, type PageCache } from '../cache/page-cache';
import type { PolicySource } from '../cache/runtime-policy';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { logRequest, markBytesBefore, requestIdOf, type SentFacts } from './request-context';
import { pageFormFor } from './accept-encoding';
import { classifyRequest, sharedCopyAnswers, type RequestClass } from './classify';
import { carryLookup, pageKind, pageRequestOf, requestHeadOf, routeLabel, type PageRequest } from './page-request';
import { writeHeld, type HeldHeads } from './page-response';

export interface PageHitsDeps {
  pageCache: PageCache;
  cachePolicy: PolicySource;
  logger: Logger;
  metrics: Metrics;
  /** The heads held pages are written with, shared with the chain (page-response.ts). */
  heads: HeldHeads;
  /** PREVIEW_SECRET: a request with a preview cookie it vouches for is an editor's preview, never a cached hit. */
  previewSecret?: string;
}

/** What the target and Host alone say of a request this path may answer (a page route), worked out once for both. */
interface Candidate {
  /** Shared by every request for the same target and Host: never handed on as it is (ownRequest). */
  request: PageRequest;
  /** What Express's req.path is: the path as sent, without the query. */
  path: string;
}

/**
 * Candidates by Host and target: readers ask for a few hundred pages again and again, and working one out (the
 * site, the URL, the route, the query the page reads, the key) cost more than the rest of a hit's own work. The
 * tables they come from (sites, routes, the key space) are fixed for the process. Bounded: a flood of distinct
 * targets empties it, and each is worked out as if it were not here.
 */
const CANDIDATES_KEPT = 1024;

class Candidates {
  private readonly byHost = new Map<string | undefined, Map<string, Candidate | null>>();
  private size = 0;

  constructor(private readonly pageCache: PageCache) {}

  of(target: string, host: string | undefined): Candidate | null {
    let byTarget = this.byHost.get(host);
    const known = byTarget?.get(target);
    if (known !== undefined) return known;
    const candidate = candidateAt(target, host, this.pageCache);
    if (this.size >= CANDIDATES_KEPT) {
      this.byHost.clear();
      this.size = 0;
      byTarget = undefined;
    }
    if (!byTarget) this.byHost.set(host, (byTarget = new Map()));
    byTarget.set(target, candidate);
    this.size += 1;
    return candidate;
  }
}

export function pageHits(deps: PageHitsDeps, next: RequestListener): RequestListener {
  const candidates = new Candidates(deps.pageCache);
  return (req, res) => {
    const started = performance.now();
    markBytesBefore(req);
    const candidate = candidateOrNull(req, candidates);
    if (!candidate) {
      next(req, res);
      return;
    }
    const request = classifyRequest(candidate.request, requestHeadOf(req, deps.previewSecret));
    if (!sharedCopyAnswers(candidate.request.address, request)) {
      carryLookup(req, { request: { ...ownRequest(candidate.request), ...request } });
      next(req, res);
      return;
    }
    const answer = (lookup: HeldLookup | null) => {
      if (lookup?.freshness === 'fresh' && serveHit(deps, req, res, candidate, request, lookup, started)) return;
      // A page read in one form only is no use to the chain, which may answer in the other: it reads it again.
      carryLookup(req, { request: { ...ownRequest(candidate.request), ...request }, lookup: lookup === null || isWholeLookup(lookup) ? lookup : undefined });
      next(req, res);
    };
    // A page in L1 is answered in this turn, without a promise; Redis's answer is awaited, in the one form sent.
    const now = deps.pageCache.lookupNow(candidate.request.key);
    if (now !== undefined) answer(now);
    else deps.pageCache.lookupForm(candidate.request.key, pageFormFor(req.headers['accept-encoding'])).then(answer, () => next(req, res));
  };
}

/** A request of its own for the chain (its query parameters are an object the chain may read as its own). */
function ownRequest(shared: PageRequest): PageRequest {
  return { ...shared, params: new URLSearchParams(shared.params) };
}

/** Whatever this path cannot make sense of is the chain's to answer (its error handling included). */
function candidateOrNull(req: IncomingMessage, candidates: Candidates): Candidate | null {
  try {
    return candidateOf(req, candidates);
  } catch {
    return null;
  }
}

/** The request's page when it is a GET or HEAD of a page route; null for anything the middleware chain must see. */
function candidateOf(req: IncomingMessage, candidates: Candidates): Candidate | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const target = req.url ?? '';
  if (!target.startsWith('/')) return null;
  return candidates.of(target, req.headers.host);
}

/** A page route's candidate for `target` on `host`; null for a target the middleware chain must see whoever asks. */
function candidateAt(target: string, host: string | undefined, pageCache: PageCache): Candidate | null {
  const request = pageRequestOf(target, host, pageCache);
  if (request.address.match.kind !== 'page') return null;
  const query = target.indexOf('?');
  return { request, path: query < 0 ? target : target.slice(0, query) };
}

/** Answers with the held page; false (nothing sent, no header left behind) if that failed before the headers went. */
function serveHit(
  deps: PageHitsDeps,
  req: IncomingMessage,
  res: ServerResponse,
  candidate: Candidate,
  classified: RequestClass,
  lookup: HeldLookup,
  started: number,
): boolean {
  const { request } = candidate;
  const route = routeLabel(request);
  const id = requestIdOf(req);
  const sent: SentFacts = { cache: 'HIT', length: undefined, route };
  const finished = () => {
    logRequest(deps.logger, req, res, id, req.url ?? candidate.path, started, sent);
    deps.metrics.requestFinished(res, route, request.site.id, started, undefined, 'HIT');
  };
  try {
    res.once('finish', finished);
    const policy = deps.cachePolicy.page(pageKind(request));
    sent.length = writeHeld(req, res, deps.heads, { state: 'HIT', lookup, policy, requestId: id, varyUserAgent: classified.varyUserAgent });
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
