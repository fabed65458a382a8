/**
 * The same-origin API proxy: the browser calls /api/* on the portal, the portal calls the CMS with the session's
 * token in the `token` header (docs/product.md §6), so page script never holds the token. Only allow-listed paths pass;
 * state-changing calls must come from the portal's own pages (CSRF); answers are never cached anywhere.
 * Upstream failures follow docs/product.md §8: no response → {code:500, msg:'失败', data:null}; an error response → its body.
 */
import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { checkFeedback } from '../../shared/feedback';
import { NO_RESPONSE_ENVELOPE } from '../../shared/types/envelope';
import { clearSessionCookie, setReaderCookie } from '../auth/cookies';
import type { OriginCheck } from '../auth/csrf';
import type { Sessions } from '../auth/sessions';
import { PRIVATE_NO_STORE } from '../cache/headers';
import type { Logger } from '../platform/logger';
import { hasReaderCookie, sessionOf } from '../auth/session';
import { UpstreamHttpError, type UpstreamClient } from '../upstream/http-client';
import { allowedMethods, isAllowed, onlyReads } from './allow-list';
import { MAX_BODY_BYTES, proxyBody } from './body';
import { syncSession } from './session-sync';

export const PROXY_PREFIX = '/api';
const FEEDBACK_PATH = '/api/common/feedback';
const MAX_QUERY_LENGTH = 2048;

function answer(res: Response, status: number, code: number, msg: string): void {
  res.status(status).json({ code, msg, data: null });
}

/** The query string exactly as sent (the CMS reads its own parameters), bounded in length. */
function queryOf(req: Request): string | null {
  const index = req.originalUrl.indexOf('?');
  const query = index === -1 ? '' : req.originalUrl.slice(index);
  return query.length > MAX_QUERY_LENGTH ? null : query;
}

function errorBody(error: UpstreamHttpError): unknown {
  try {
    const parsed: unknown = JSON.parse(error.body);
    if (parsed !== null && typeof parsed === 'object') return parsed;
  } catch {
    // not JSON: the envelope below stands in for it
  }
  return { code: error.status, msg: '失败', data: null };
}

export interface ApiProxyDeps {
  upstream: UpstreamClient;
  sessions: Sessions;
  /** Whether cookies are Secure (to clear the session cookie with the attributes it was set with). */
  secureCookies: boolean;
  /** How long a session lives: a refreshed reader cookie lives as long. */
  sessionTtlSeconds: number;
  logger: Logger;
  /** Whether a state-changing request comes from the portal's own pages (csrf.ts). */
  sameOrigin: OriginCheck;
}

export function apiProxy({ upstream, sessions, secureCookies, sessionTtlSeconds, logger, sameOrigin }: ApiProxyDeps): Router {
  const router = Router();
  const json = express.json({ limit: MAX_BODY_BYTES, strict: true, type: () => true });

  router.use(PROXY_PREFIX, (req, res, next) => {
    res.setHeader('Cache-Control', PRIVATE_NO_STORE);
    const path = PROXY_PREFIX + req.path;
    // A HEAD is the GET it stands for, answered without its body (Node sends none).
    if (!isAllowed(req.method === 'HEAD' ? 'GET' : req.method, path)) {
      const methods = allowedMethods(path);
      if (methods.length === 0) return answer(res, 404, 404, 'Not Found');
      // A proxied path asked with another method: which ones it takes.
      res.setHeader('Allow', [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', '));
      return answer(res, 405, 405, 'Method Not Allowed');
    }
    if (req.method === 'POST' && !sameOrigin(req)) return answer(res, 403, 403, '请求来源无效');
    next();
  });
  router.post(`${PROXY_PREFIX}/*rest`, json);
  router.use(PROXY_PREFIX, async (req, res, next) => {
    try {
      const query = queryOf(req);
      if (query === null) return answer(res, 414, 40000, '参数错误');
      let body: Record<string, unknown> | undefined;
      if (req.method === 'POST') {
        const parsed = proxyBody.safeParse(req.body ?? {});
        if (!parsed.success) return answer(res, 400, 40000, '参数错误');
        body = parsed.data;
        // Feedback is checked here with the form's own rules, so a bad one never costs a CMS call.
        if (PROXY_PREFIX + req.path === FEEDBACK_PATH) {
          const feedback = checkFeedback(body);
          if (!feedback.ok) return answer(res, 400, 40000, feedback.message);
          body = { ...feedback.value };
        }
      }
      const session = sessionOf(req);
      try {
        const method = req.method === 'POST' ? 'POST' : 'GET';
        const result = await upstream.request({
          method,
          readOnly: onlyReads(method, PROXY_PREFIX + req.path),
          path: PROXY_PREFIX + req.path + query,
          ...(body ? { body } : {}),
          ...(session ? { headers: { token: session.session.token } } : {}),
          call: 'proxy',
        });
        if (result.outcome === 'unavailable') {
          logger.warn({ path: req.path, reason: result.reason }, 'proxied call got no answer');
          res.status(502).json(NO_RESPONSE_ENVELOPE);
          return;
        }
        const synced = session
          ? await syncSession(sessions, session, PROXY_PREFIX + req.path, result.envelope, (error) =>
              logger.warn({ err: error, path: req.path }, 'session not updated: the session store cannot answer'),
            )
          : null;
        if (synced?.kind === 'updated') setReaderCookie(req, res, synced.user, secureCookies, sessionTtlSeconds);
        // The CMS ended the token, or the browser still shows a reader whose session is gone: it is signed out.
        if (synced?.kind === 'ended' || (!session && hasReaderCookie(req))) clearSessionCookie(req, res, secureCookies);
        res.status(200).json(result.envelope);
      } catch (error) {
        if (!(error instanceof UpstreamHttpError)) throw error;
        logger.warn({ path: req.path, status: error.status }, 'proxied call answered with an HTTP error');
        res.status(502).json(errorBody(error));
      }
    } catch (error) {
      next(error);
    }
  });
  // Body parser errors (too large, not JSON) answer in the API's own shape, not the HTML error page.
  const bodyErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status !== 'number' || status >= 500) return next(error);
    answer(res, status === 413 ? 413 : 400, 40000, '参数错误');
  };
  router.use(PROXY_PREFIX, bodyErrors);
  return router;
}
