/**
 * One page request as both answering paths see it (docs/architecture.md, "How a request is served"): the site
 * (from the site table, never the raw Host), the query parameters, the page address (route matched once, query
 * kept once) and its page-cache key, with the request's class (classify.ts) beside them. It is made once per
 * request: the cached-hit path in front of Express makes it (the page once per Host and target, page-hits.ts; the
 * class from each request's head), and when it leaves the request to the chain it carries a copy of its own on the
 * request with the lookup it made, so the page handler neither classifies the request, matches the route nor asks
 * the cache a second time.
 */
import type { IncomingMessage } from 'node:http';
import cookieParser from 'cookie-parser';
import type { Request, Response } from 'express';
import { isPlainPath } from '../../shared/canonical-path';
import { addressOf, type PageAddress } from '../../shared/page-address';
import { resolveSite, type SiteConfig } from '../../shared/sites';
import { READER_COOKIE } from '../../shared/reader-cookie';
import { isSessionCookie, SESSION_COOKIE } from '../auth/session';
import type { PageCache, PageLookup } from '../cache/page-cache';
import { PREVIEW_COOKIE } from '../preview/contract';
import { previewSessionOf } from '../preview/preview-session';
import { classifyRequest, type RequestClass, type RequestHead } from './classify';

export interface PageRequest {
  site: SiteConfig;
  /** The request's query parameters, all of them (the address keeps only those its page reads). */
  params: URLSearchParams;
  address: PageAddress;
  /** Where the shared (anonymous) page for this address is held. */
  key: string;
}

/** A page request classified once (classify.ts): its page, and for whom and which device it is answered. */
export type ClassifiedRequest = PageRequest & RequestClass;

/** A request the hit path looked up and left to the chain: what it worked out, and what the cache said. */
export interface LookedUp {
  request: ClassifiedRequest;
  /** Undefined when the chain must look the page up itself. */
  lookup?: PageLookup | null;
}

/** The route id for metrics and logs (a bounded label), or the kind of match for anything that is not a page. */
export function routeLabel(request: PageRequest): string {
  const { match } = request.address;
  return match.kind === 'page' ? match.route.id : match.kind;
}

/** The page kind whose cache policy applies ('' for anything that is not a page: the default policy). */
export function pageKind(request: PageRequest): string {
  const { match } = request.address;
  return match.kind === 'page' ? (match.route.page ?? '') : '';
}

/** A request target's path and query parameters. */
export interface Target {
  pathname: string;
  params: URLSearchParams;
}

/**
 * The path and query of a request target as a WHATWG URL parse against a fixed origin gives them (the Host header
 * never shapes a URL). A plain path with no query, nearly every page request (`/home`, `/detail/2728/33727`), is
 * what that parse gives back as it is (shared/canonical-path.ts), so it is taken without one (about 1 µs less a
 * request, cached hits included).
 */
export function targetOf(target: string): Target {
  if (isPlainPath(target)) return { pathname: target, params: new URLSearchParams() };
  const url = new URL(target, 'http://portal.invalid');
  return { pathname: url.pathname, params: url.searchParams };
}

export function pageRequestOf(target: string, host: string | undefined, pageCache: PageCache): PageRequest {
  const site = resolveSite(host);
  const { pathname, params } = targetOf(target);
  const address = addressOf(pathname, params);
  return { site, params, address, key: pageCache.keyFor(site.id, address.path) };
}

/**
 * The request's cookies, read once: by cookie-parser, here where the request enters, as Express's own
 * cookieParser() would (which then finds them read and keeps them). cookie-parser reads only the Cookie header
 * and writes only `req.cookies`.
 */
const readCookies = cookieParser();

type WithCookies = IncomingMessage & { cookies?: Record<string, unknown> };

function cookiesOf(req: IncomingMessage): Record<string, unknown> {
  const withCookies = req as WithCookies;
  if (!withCookies.cookies) readCookies(req as Request, {} as Response, () => undefined);
  return withCookies.cookies ?? {};
}

/** What a request's head says of its reader: its User-Agent and its cookies, the preview's checked now. */
export function requestHeadOf(req: IncomingMessage, previewSecret: string | undefined): RequestHead {
  const cookies = cookiesOf(req);
  const preview = cookies[PREVIEW_COOKIE];
  return {
    userAgent: req.headers['user-agent'],
    preview: previewSecret !== undefined && typeof preview === 'string' && previewSessionOf(preview, previewSecret) !== null,
    sessionCookie: isSessionCookie(cookies[SESSION_COOKIE]),
    readerCookie: typeof cookies[READER_COOKIE] === 'string',
  };
}

/** A page request and its class: the one value the hit path, the page handler and their units read. */
export function classified(page: PageRequest, head: RequestHead): ClassifiedRequest {
  return { ...page, ...classifyRequest(page, head) };
}

/** Kept on the request object itself, so it lives and goes with the request. */
const CARRIED = Symbol('page request looked up before the chain');

type Carrying = IncomingMessage & { [CARRIED]?: LookedUp };

/** The hit path leaves the request to the chain with what it already worked out. */
export function carryLookup(req: IncomingMessage, lookedUp: LookedUp): void {
  (req as Carrying)[CARRIED] = lookedUp;
}

/** What the hit path worked out for this request, if it did (taken once: a second ask asks the cache again). */
export function takeLookup(req: IncomingMessage): LookedUp | undefined {
  const carrying = req as Carrying;
  const lookedUp = carrying[CARRIED];
  delete carrying[CARRIED];
  return lookedUp;
}
