/**
 * Sign-in by WeChat QR (docs/product.md §4, §7) and logout:
 *   GET  /login/wechat?return=…           → state cookie + pending sign-in, 302 to WeChat's qrconnect page
 *   GET  /login/wechat/callback?code&state → state checked and consumed, code exchanged, session + reader cookies, 302 back
 *   POST /logout                          → CSRF-checked; CMS logout, session deleted, both cookies cleared, 302 home
 * Every failure leaves the reader signed out with a page saying what happened; nothing here is cacheable. A
 * session store that cannot answer (a Redis refusing writes after a failover, or down) makes sign-in a 503 with
 * Retry-After; logout still clears the browser's cookies (the CMS has ended the token by then).
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '../platform/logger';
import { STORE_RETRY_AFTER_SECONDS, StoreUnavailableError } from '../redis/store-unavailable';
import { bareErrorDocument } from '../platform/html';
import { sessionCookieOf, sessionOf, setSession } from './session';
import type { AccountClient } from './account-client';
import { CALLBACK_PATH, clearSessionCookie, clearStateCookie, LOGIN_PATH, setReaderCookie, setSessionCookie, setStateCookie, STATE_COOKIE } from './cookies';
import type { OriginCheck } from './csrf';
import { safeReturnAddress } from './return-address';
import type { Sessions } from './sessions';
import type { AuthSettings } from './settings';

export const LOGOUT_PATH = '/logout';
export const MSG_STATE_INVALID = '登录已失效，请重新扫码登录';
export const MSG_EXCHANGE_FAILED = '微信登录失败，请重新扫码登录';
export const MSG_NOT_CONFIGURED = '微信登录暂未开放';
export const MSG_CSRF = '请求来源无效';
export const MSG_SIGN_IN_UNAVAILABLE = '登录服务暂时不可用，请稍后再试';

const STATE_PATTERN = /^[0-9a-f]{64}$/;

export interface AuthDeps {
  settings: AuthSettings;
  sessions: Sessions;
  accounts: AccountClient;
  logger: Logger;
  /** Whether a state-changing request comes from the portal's own pages (csrf.ts). */
  sameOrigin: OriginCheck;
}

/** Looks the session cookie up once per request; a lookup failure (Redis down) reads as signed out. */
export function attachSession(sessions: Sessions, logger: Logger): RequestHandler {
  return async (req, _res, next) => {
    const id = sessionCookieOf(req);
    if (id) {
      try {
        const session = await sessions.read(id);
        if (session) setSession(req, id, session);
      } catch (error) {
        logger.warn({ err: error }, 'session lookup failed; treating the reader as signed out');
      }
    }
    next();
  };
}

function sendProblem(res: Response, status: number, message: string): void {
  res.setHeader('Cache-Control', 'private, no-store');
  res.status(status).type('html').send(bareErrorDocument(status, message));
}

/** Sign-in needs the session store; when it cannot answer, the reader is told to try again, not shown a 500. */
function signInFailed(res: Response, logger: Logger, error: unknown, next: (error: unknown) => void): void {
  if (!(error instanceof StoreUnavailableError)) return next(error);
  logger.warn({ err: error }, 'sign-in refused: the session store cannot answer');
  res.setHeader('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
  sendProblem(res, 503, MSG_SIGN_IN_UNAVAILABLE);
}

function queryString(req: Request, name: string): string {
  const value: unknown = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

export function authRoutes(deps: AuthDeps): Router {
  const { settings, sessions, accounts, logger, sameOrigin } = deps;
  const secure = settings.secureCookies;
  const router = Router();

  router.get(LOGIN_PATH, async (req, res, next) => {
    try {
      if (!settings.appId) return sendProblem(res, 503, MSG_NOT_CONFIGURED);
      const returnTo = safeReturnAddress(queryString(req, 'return'));
      const state = await sessions.startLogin(returnTo);
      setStateCookie(req, res, state, secure);
      // docs/product.md §7: the redirect goes to the main site's login page carrying the current address.
      const callback = new URL(CALLBACK_PATH, settings.callbackOrigin);
      callback.searchParams.set('return', returnTo);
      const target = new URL(settings.qrconnectUrl);
      target.searchParams.set('appid', settings.appId);
      target.searchParams.set('redirect_uri', callback.toString());
      target.searchParams.set('response_type', 'code');
      target.searchParams.set('scope', 'snsapi_login');
      target.searchParams.set('state', state);
      // Framed in the login dialog (WeChat's JS widget form): WeChat sends the whole page, not the frame, back.
      if (queryString(req, 'embed') === '1') {
        target.searchParams.set('login_type', 'jssdk');
        target.searchParams.set('self_redirect', 'false');
      }
      target.hash = 'wechat_redirect';
      res.setHeader('Cache-Control', 'private, no-store');
      res.redirect(302, target.toString());
    } catch (error) {
      signInFailed(res, logger, error, next);
    }
  });

  router.get(CALLBACK_PATH, async (req, res, next) => {
    try {
      const state = queryString(req, 'state');
      const code = queryString(req, 'code');
      const cookies = req.cookies as Record<string, unknown> | undefined;
      const cookieState = cookies?.[STATE_COOKIE];
      clearStateCookie(req, res, secure);
      // The state must be the one this browser was given (cookie) and still pending on the server (single use).
      const returnTo = STATE_PATTERN.test(state) && cookieState === state ? await sessions.finishLogin(state) : null;
      if (returnTo === null) {
        logger.info({ reason: cookieState === state ? 'state unknown or used' : 'state mismatch' }, 'sign-in refused');
        return sendProblem(res, 400, MSG_STATE_INVALID);
      }
      if (!code || code.length > 512) return sendProblem(res, 400, MSG_EXCHANGE_FAILED);
      const exchanged = await accounts.exchangeCode(code);
      if (exchanged.kind === 'failed') {
        logger.warn({ reason: exchanged.reason }, 'sign-in code exchange failed');
        return sendProblem(res, 400, MSG_EXCHANGE_FAILED);
      }
      // A session already on this browser is replaced, not kept beside the new one.
      const previous = sessionOf(req);
      if (previous) await sessions.destroy(previous.id);
      const id = await sessions.create(exchanged.user, exchanged.token);
      setSessionCookie(req, res, id, secure, settings.sessionTtlSeconds);
      setReaderCookie(req, res, exchanged.user, secure, settings.sessionTtlSeconds);
      res.setHeader('Cache-Control', 'private, no-store');
      // Checked again on the way out: whatever the store held, only a safe address is ever sent.
      res.redirect(302, safeReturnAddress(returnTo));
    } catch (error) {
      signInFailed(res, logger, error, next);
    }
  });

  router.post(LOGOUT_PATH, async (req, res, next) => {
    try {
      if (!sameOrigin(req)) return sendProblem(res, 403, MSG_CSRF);
      const current = sessionOf(req);
      if (current) {
        await accounts.logout(current.session.token);
        // A store that cannot delete it leaves a session whose CMS token has just been ended: it expires with its
        // TTL, and the browser is signed out below either way.
        await sessions.destroy(current.id).catch((error: unknown) => {
          if (!(error instanceof StoreUnavailableError)) throw error;
          logger.warn({ err: error }, 'logout: the session could not be deleted; it ends with its TTL');
        });
      }
      clearSessionCookie(req, res, secure);
      res.setHeader('Cache-Control', 'private, no-store');
      res.redirect(303, '/');
    } catch (error) {
      next(error);
    }
  });

  return router;
}
