/**
 * The cookies of sign-in. The state and session cookies are httpOnly (page script never sees them); the reader
 * cookie holds only the public profile the header shows and is readable by page script on purpose (see
 * shared/reader-cookie.ts). All are SameSite=Lax (sent on the top-level GET back from WeChat, not on cross-site
 * POSTs). On the portal's own domains they are scoped to the shared parent domain, so a sign-in started on a
 * regional site is finished on the main site and seen on every site.
 */
import type { CookieOptions, Request, Response } from 'express';
import type { PublicUser } from '../../shared/app-state';
import { encodeReaderCookie, READER_COOKIE } from '../../shared/reader-cookie';
import { BASE_DOMAIN, normaliseHost } from '../../shared/sites';
import { SESSION_COOKIE } from './session';
import { LOGIN_STATE_TTL_SECONDS } from './sessions';

export const STATE_COOKIE = 'portal_login_state';
export const LOGIN_PATH = '/login/wechat';
export const CALLBACK_PATH = '/login/wechat/callback';

function baseOptions(req: Request, secure: boolean): CookieOptions {
  const host = normaliseHost(req.headers.host);
  const shared = host === BASE_DOMAIN || host.endsWith(`.${BASE_DOMAIN}`);
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', ...(shared ? { domain: BASE_DOMAIN } : {}) };
}

export function setStateCookie(req: Request, res: Response, state: string, secure: boolean): void {
  res.cookie(STATE_COOKIE, state, { ...baseOptions(req, secure), path: LOGIN_PATH, maxAge: LOGIN_STATE_TTL_SECONDS * 1000 });
}

export function clearStateCookie(req: Request, res: Response, secure: boolean): void {
  res.clearCookie(STATE_COOKIE, { ...baseOptions(req, secure), path: LOGIN_PATH });
}

export function setSessionCookie(req: Request, res: Response, id: string, secure: boolean, ttlSeconds: number): void {
  res.cookie(SESSION_COOKIE, id, { ...baseOptions(req, secure), maxAge: ttlSeconds * 1000 });
}

/** The session ends for this browser: its reader cookie goes with it, so no page shows the menu any longer. */
export function clearSessionCookie(req: Request, res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, baseOptions(req, secure));
  res.clearCookie(READER_COOKIE, { ...baseOptions(req, secure), httpOnly: false });
}

/** Set with the session and again when the profile is refreshed; it lives as long as the session does. */
export function setReaderCookie(req: Request, res: Response, user: PublicUser, secure: boolean, ttlSeconds: number): void {
  // Already cookie-safe (base64url): written as is, not percent-encoded again.
  res.cookie(READER_COOKIE, encodeReaderCookie(user), { ...baseOptions(req, secure), httpOnly: false, maxAge: ttlSeconds * 1000, encode: String });
}
