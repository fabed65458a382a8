/**
 * The rules a request is classified by where it enters (docs/architecture.md, "How a request is served"): who it
 * is for, which device it is answered for, and whether it belongs at another address. Pure, so each rule is tested on its own
 * (test/server/edge/classify.test.ts); the cached-hit path, the page handler and the data endpoints apply them
 * from here and hold no copy of their own.
 */
import { isbot } from 'isbot';
import type { PageAddress } from '../../shared/page-address';
import type { RouteMatch } from '../../shared/routes';
import { signedMobileLink } from '../preview/preview-link';
import { searchFormRedirect } from './search-redirect';

export interface ReaderFacts {
  /** A live session (signed in). */
  signedIn: boolean;
  /** The route renders per reader (the personal center). */
  perReader: boolean;
  /** The reader cookie the shared pages show the menu from is set. */
  hasReaderCookie: boolean;
}

/**
 * A signed-in reader gets a render of their own (PASS) on a per-reader page, and when their session predates
 * the reader cookie (the render sets it, so their next pages come from the shared cache); everyone else gets
 * the shared page.
 */
export function rendersForReader(reader: ReaderFacts): boolean {
  return reader.signedIn && (reader.perReader || !reader.hasReaderCookie);
}

// Phones, not tablets: an iPad or Android tablet gets the desktop page, as the publisher's own site does.
const MOBILE_UA = /Mobi|iPhone|iPod|Android.+Mobile|Windows Phone|HarmonyOS.+Mobile|MicroMessenger.+Mobile/i;

export function isMobileUserAgent(userAgent: string | undefined): boolean {
  return MOBILE_UA.test(userAgent ?? '');
}

/** Article detail is the page that depends on the User-Agent (phones are sent to the mobile site). */
export function variesByUserAgent(match: RouteMatch): match is Extract<RouteMatch, { kind: 'page' }> {
  return match.kind === 'page' && match.route.id === 'detail';
}

/**
 * Who a request is for, in the order the page handler serves them: an editor's preview (drafts, never cached);
 * a signed-in reader (a session cookie of ours; whether its session lives is the session store's to say, and a
 * stale one gets the shared page); a crawler (`isbot`: the finished document, every block in place); anyone else.
 */
export type Audience = 'preview' | 'signed-in' | 'crawler' | 'anonymous';

/** What a request's head says of its reader, read once where it enters. */
export interface RequestHead {
  userAgent: string | undefined;
  /** An editor's preview cookie that PREVIEW_SECRET vouches for now. */
  preview: boolean;
  /** A session cookie of ours (64 hex characters). */
  sessionCookie: boolean;
  /** The public reader cookie the shared pages show the menu from. */
  readerCookie: boolean;
}

/** What every entry point needs of a page request's target: where it points and the query it carries. */
export interface Addressed {
  address: PageAddress;
  params: URLSearchParams;
}

/** A request classified once: for whom, for which device, and whether it belongs elsewhere. */
export interface RequestClass {
  audience: Audience;
  /** A signed-in reader whose page is their own (rendersForReader): never the shared page's cached copy. */
  ownPage: boolean;
  /** The page depends on the User-Agent (article detail): its answers say `Vary: User-Agent`. */
  varyUserAgent: boolean;
  /** A phone asking for an article: it goes to the mobile site (mobileDetailTarget). */
  phone: boolean;
  /** Where the request belongs instead (the search form's path, a route's own redirect), or null. */
  redirect: string | null;
}

export function classifyRequest({ address, params }: Addressed, head: RequestHead): RequestClass {
  const { match } = address;
  const audience = audienceOf(head);
  const perReader = match.kind === 'page' && match.route.perReader === true;
  const varyUserAgent = variesByUserAgent(match);
  return {
    audience,
    ownPage: audience === 'signed-in' && rendersForReader({ signedIn: true, perReader, hasReaderCookie: head.readerCookie }),
    varyUserAgent,
    phone: varyUserAgent && isMobileUserAgent(head.userAgent),
    redirect: searchFormRedirect(address.pathname, params) ?? (match.kind === 'redirect' ? match.location : null),
  };
}

function audienceOf(head: RequestHead): Audience {
  if (head.preview) return 'preview';
  if (head.sessionCookie) return 'signed-in';
  return isCrawler(head.userAgent ?? '') ? 'crawler' : 'anonymous';
}

/**
 * isbot's answer by User-Agent: its pattern costs about 3 µs a call, as much as the rest of a request's
 * classification, and readers' browsers send a few hundred distinct strings. Bounded: a flood of distinct strings
 * empties it, and each is asked as if it were not here.
 */
const CRAWLER_ANSWERS_KEPT = 512;
const crawlerAnswers = new Map<string, boolean>();

function isCrawler(userAgent: string): boolean {
  const known = crawlerAnswers.get(userAgent);
  if (known !== undefined) return known;
  if (crawlerAnswers.size >= CRAWLER_ANSWERS_KEPT) crawlerAnswers.clear();
  const answer = isbot(userAgent);
  crawlerAnswers.set(userAgent, answer);
  return answer;
}

/** Whether the page cache's shared copy answers this request as it is (the cached-hit path's one question). */
export function sharedCopyAnswers(address: PageAddress, request: RequestClass): boolean {
  return address.match.kind === 'page' && request.redirect === null && request.audience !== 'preview' && !request.ownPage && !request.phone;
}

/**
 * Where a phone opening an article is sent: the mobile site's article, with catid and id as query parameters
 * (docs/product.md §2), or null for any other request. One rule for a document request and for a client
 * navigation's page data (server/render/data-endpoints.ts), so following a link on a phone ends where typing the
 * URL does. In an editor's preview the mobile site is asked for the draft too, by a link signed as the CMS signs
 * its own.
 */
export function mobileDetailTarget(match: RouteMatch, request: RequestClass, mobileDetailUrl: string, previewSecret?: string): string | null {
  if (!request.phone || match.kind !== 'page') return null;
  const { catid, id } = match.params;
  if (!catid || !id) return null;
  const target = new URL(mobileDetailUrl);
  target.searchParams.set('catid', catid);
  target.searchParams.set('id', id);
  return request.audience === 'preview' && previewSecret !== undefined ? signedMobileLink(target, previewSecret) : target.toString();
}
