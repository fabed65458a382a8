/**
 * One framing policy before anything reads a request's host, path or body (RFC 9112): what Node's parser lets
 * through but a proxy in front might read otherwise (a second Host, an absolute-form target, a transfer coding
 * other than one `chunked`, a Content-Length beside it, an underscore spelling, a version other than 1.0/1.1) is
 * refused, `no-store`, with the connection closed, so the portal and every hop agree on where a request ends and
 * which site it is for. The rules, and what llhttp refuses itself: docs/security.md "One reading of a request's
 * framing"; every variant: test/server/request-framing.test.ts.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { endAsForGet } from './head-as-get';
import { logRequest, requestIdOf } from './request-context';
import { newNonce, type SecurityHeaders } from './security';

export interface FramingDeps {
  logger: Logger;
  metrics: Metrics;
  security: SecurityHeaders;
}

export type FramingVerdict = { ok: true } | { ok: false; status: 400 | 501 | 505; reason: string };

const OK: FramingVerdict = { ok: true };
/** uri-host [":" port] (RFC 3986): an IP literal in brackets, or reg-name characters (percent-encoding included). */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;
const DIGITS = /^[0-9]+$/;

/** The values of every field line named `name` (any case), as sent: Node folds or drops repeats in `headers`. */
function fieldLines(req: IncomingMessage, name: string): string[] {
  const values: string[] = [];
  const raw = req.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]!.length === name.length && raw[index]!.toLowerCase() === name) values.push(raw[index + 1]!);
  }
  return values;
}

/**
 * `Transfer_Encoding`, `content_length`: not framing headers to Node, but a proxy or CGI-style gateway that maps `_`
 * to `-` (as CGI's HTTP_* variables do) would frame the request by them, so two hops would disagree on its end.
 */
function hasUnderscoredFraming(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    if (name.includes('_') && UNDERSCORED_FRAMING.has(name.toLowerCase())) return true;
  }
  return false;
}
const UNDERSCORED_FRAMING = new Set(['transfer_encoding', 'content_length']);

export function judgeFraming(req: IncomingMessage): FramingVerdict {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor > 1)
    return { ok: false, status: 505, reason: `HTTP/${req.httpVersion} is not spoken here: HTTP/1.1 or HTTP/1.0` };
  // An absolute-form target's authority overrides Host (§3.2.2): two names for the site, as with two Hosts.
  const target = req.url ?? '';
  if (!target.startsWith('/') && !(target === '*' && req.method === 'OPTIONS'))
    return { ok: false, status: 400, reason: 'request target must be a path (origin-form)' };
  const hosts = fieldLines(req, 'host');
  if (hosts.length > 1) return { ok: false, status: 400, reason: 'more than one Host header' };
  if (hosts.length === 1 && !HOST_VALUE.test(hosts[0]!)) return { ok: false, status: 400, reason: 'malformed Host header' };
  if (hasUnderscoredFraming(req)) return { ok: false, status: 400, reason: 'a framing header spelt with an underscore' };
  const lengths = fieldLines(req, 'content-length');
  const encodings = fieldLines(req, 'transfer-encoding');
  if (encodings.length > 0) return judgeTransferEncoding(req, encodings, lengths.length > 0);
  if (lengths.length > 1) return { ok: false, status: 400, reason: 'more than one Content-Length header' };
  if (lengths.length === 1 && !DIGITS.test(lengths[0]!.trim())) return { ok: false, status: 400, reason: 'malformed Content-Length' };
  return OK;
}

function judgeTransferEncoding(req: IncomingMessage, lines: string[], hasLength: boolean): FramingVerdict {
  if (hasLength) return { ok: false, status: 400, reason: 'both Content-Length and Transfer-Encoding' };
  if (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) return { ok: false, status: 400, reason: 'Transfer-Encoding in an HTTP/1.0 request' };
  // Transfer coding names are case-insensitive (§7); every field line is one comma-separated list.
  const codings = lines.flatMap((line) => line.split(',')).map((coding) => coding.trim().toLowerCase());
  if (codings.some((coding) => coding === '')) return { ok: false, status: 400, reason: 'empty transfer coding' };
  const chunked = codings.filter((coding) => coding === 'chunked').length;
  const others = codings.filter((coding) => coding !== 'chunked');
  if (others.length > 0) return { ok: false, status: 501, reason: `transfer coding not implemented: ${others.join(', ')}` };
  if (chunked > 1) return { ok: false, status: 400, reason: 'chunked applied more than once' };
  return OK;
}

const TITLES = { 400: 'Bad Request', 501: 'Not Implemented', 505: 'HTTP Version Not Supported' } as const;

export function withFramingPolicy(deps: FramingDeps, next: RequestListener): RequestListener {
  return (req, res) => {
    const verdict = judgeFraming(req);
    if (verdict.ok) {
      next(req, res);
      return;
    }
    refuse(deps, req, res, verdict);
  };
}

function refuse(deps: FramingDeps, req: IncomingMessage, res: ServerResponse, verdict: Extract<FramingVerdict, { ok: false }>): void {
  const started = performance.now();
  const id = requestIdOf(req);
  res.once('finish', () => {
    logRequest(deps.logger, req, res, id, req.url ?? '', started);
    deps.metrics.requestFinished(res, 'framing-refused', undefined, started);
  });
  res.statusCode = verdict.status;
  res.setHeader('X-Request-Id', id);
  deps.security.apply(res, newNonce());
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Connection', 'close');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  const title = TITLES[verdict.status];
  endAsForGet(req, res, `${title}: ${verdict.reason}\n`);
}
