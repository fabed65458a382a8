/**
 * The rules a request is classified by where it enters (docs/architecture.md, "How a request is served"): who it
 * is for and which device it is answered for. Pure, so each rule is tested on its own
 * (test/server/edge/classify.test.ts); the cached-hit path, the page handler and the data endpoints apply them
 * from here and hold no copy of their own.
 */
import type { RouteMatch } from '../../shared/routes';

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
