/**
 * The edge of the request path: before the cached-hit path and Express see a request, its path is brought to
 * its one canonical spelling (shared/canonical-path.ts). A GET or HEAD spelt another way is a 301 to the
 * canonical path with the query kept when that path is a page, and a 404 when it is not; any other method is a
 * 400, since a redirect would not carry its body everywhere. A target with no canonical form (malformed escape,
 * control character, absolute-form) is a 400.
 * A page whose params have a spelling of their own (shared/routes.ts routeSpelling: a search keyword's base64, a
 * tag page's title) is brought to it the same way, and a param with no valid spelling is a 404.
 * Everything that follows — hits, the chain, the mobile redirect, cache keys — therefore sees one path.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { classifyPath } from '../../shared/canonical-path';
import { findRoute, routeSpelling } from '../../shared/routes';
import { bareErrorDocument } from '../platform/html';
import { TEXT } from '../../shared/constants';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { endAsForGet } from './head-as-get';
import { logRequest, requestIdOf } from './request-context';
import { newNonce, type SecurityHeaders } from './security';

export interface CanonicalTargetDeps {
  logger: Logger;
  metrics: Metrics;
  security: SecurityHeaders;
}

/** A spelling redirect is the same for every reader and every time: caches may keep it a day. */
const REDIRECT_CACHE_CONTROL = 'public, max-age=86400';
const MAX_TARGET_LENGTH = 8192;
const API_PREFIX = '/api/';
const API_NOT_FOUND = JSON.stringify({ code: 404, msg: 'Not Found', data: null });
const HEADER_SAFE = /^[\x21-\x7e]*$/;

type Verdict = { kind: 'pass' } | { kind: 'redirect'; location: string } | { kind: 'not-found' } | { kind: 'bad'; message: string };

export type Spelling = { kind: 'invalid' } | { kind: 'not-a-page' } | { kind: 'spelt'; path: string };

/**
 * A path's one spelling: shared/canonical-path.ts's, then the page's own rule for its params (a search keyword's
 * one base64 spelling, a tag page without a title). The rule of a document's target here and of a client
 * navigation's path (server/render/data-endpoints.ts).
 */
export function canonicalSpelling(path: string): Spelling {
  const verdict = classifyPath(path);
  if (verdict.kind === 'invalid') return { kind: 'invalid' };
  const spelt = verdict.kind === 'canonical' ? path : verdict.path;
  const spelling = routeSpelling(spelt);
  if (spelling.kind === 'not-a-page') return { kind: 'not-a-page' };
  return { kind: 'spelt', path: spelling.kind === 'respelt' ? spelling.path : spelt };
}

export function judgeTarget(method: string | undefined, target: string | undefined): Verdict {
  // `OPTIONS *` has no path to normalise; Express answers it.
  if (target === '*' && method === 'OPTIONS') return { kind: 'pass' };
  if (!target || !target.startsWith('/')) return { kind: 'bad', message: '请求的地址必须是以 / 开头的路径' };
  if (target.length > MAX_TARGET_LENGTH) return { kind: 'bad', message: '请求的地址过长' };
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const spelling = canonicalSpelling(path);
  if (spelling.kind === 'invalid') return { kind: 'bad', message: '地址格式有误' };
  if (spelling.kind === 'not-a-page') return { kind: 'not-found' };
  const canonical = spelling.path;
  if (canonical === path) return { kind: 'pass' };
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'bad', message: `请使用规范地址 ${canonical}` };
  // Only a page is worth a redirect: another spelling of a file, an API path or nothing at all is simply not
  // here, so no Location ever echoes a path an attacker wrote (`//evil.example` → '/evil.example').
  if (findRoute(canonical).kind === 'not-found') return { kind: 'not-found' };
  const location = canonical + (queryAt < 0 ? '' : target.slice(queryAt));
  // A query holding bytes a header may not carry cannot be sent back in Location.
  if (!HEADER_SAFE.test(location)) return { kind: 'bad', message: '查询参数格式有误' };
  return { kind: 'redirect', location };
}

export function canonicalTargets(deps: CanonicalTargetDeps, next: RequestListener): RequestListener {
  return (req, res) => {
    const verdict = judgeTarget(req.method, req.url);
    if (verdict.kind === 'pass') {
      next(req, res);
      return;
    }
    answer(deps, req, res, verdict);
  };
}

function answer(deps: CanonicalTargetDeps, req: IncomingMessage, res: ServerResponse, verdict: Exclude<Verdict, { kind: 'pass' }>): void {
  const started = performance.now();
  const id = requestIdOf(req);
  res.once('finish', () => {
    logRequest(deps.logger, req, res, id, req.url ?? '', started);
    deps.metrics.requestFinished(res, `target-${verdict.kind}`, undefined, started);
  });
  res.setHeader('X-Request-Id', id);
  deps.security.apply(res, newNonce());
  if (verdict.kind === 'redirect') {
    res.statusCode = 301;
    res.setHeader('Location', verdict.location);
    res.setHeader('Cache-Control', REDIRECT_CACHE_CONTROL);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    endAsForGet(req, res, `Moved Permanently: ${verdict.location}\n`);
    return;
  }
  res.setHeader('Cache-Control', 'no-store');
  if (verdict.kind === 'not-found') {
    res.statusCode = 404;
    // The API proxy's clients read an envelope, whatever spelling they sent; readers get the 404 page.
    const api = (req.url ?? '').startsWith(API_PREFIX);
    res.setHeader('Content-Type', api ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8');
    const body = api ? API_NOT_FOUND : bareErrorDocument(404, TEXT.notFound);
    endAsForGet(req, res, body);
    return;
  }
  res.statusCode = 400;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  endAsForGet(req, res, `请求有误：${verdict.message}\n`);
}
