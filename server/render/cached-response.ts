/**
 * A page answered from the page cache, on plain node:http objects: the page handler (inside Express) and the
 * cached-hit path in front of Express (page-hits.ts) send it with this one function, so both answer alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import vary from 'vary';
import type { CachePolicy } from '../cache/entry';
import { sharedCacheControl, surrogateKey } from '../cache/headers';
import type { CachedPage, PageLookup } from '../cache/page-cache';
import { byteLength, gzipBody, plainBody } from '../cache/precompressed-page';
import { acceptsGzip } from './accept-encoding';

export type CachedState = 'HIT' | 'STALE';

const SERVER_TIMING: Record<CachedState, string> = { HIT: 'cache;desc="HIT"', STALE: 'cache;desc="STALE"' };

/** Surrogate-Key of a held entry's tags: the same array on every L1 hit, so the header is built once. */
const surrogateKeys = new WeakMap<readonly string[], string | undefined>();

function surrogateKeyOf(tags: readonly string[]): string | undefined {
  if (surrogateKeys.has(tags)) return surrogateKeys.get(tags);
  const value = surrogateKey(tags);
  surrogateKeys.set(tags, value);
  return value;
}

/** The cached page's headers, then a 304 when the reader's copy is current, else the page with `nonce`. */
export function sendCachedPage(
  req: IncomingMessage,
  res: ServerResponse,
  cached: PageLookup,
  state: CachedState,
  ageSeconds: number,
  policy: CachePolicy,
  nonce: string,
): void {
  const page = cached.page;
  res.setHeader('X-Cache', state);
  res.setHeader('ETag', page.etag);
  res.setHeader('Age', String(ageSeconds));
  res.setHeader('Cache-Control', sharedCacheControl(policy));
  const keys = surrogateKeyOf(cached.tags);
  if (keys) res.setHeader('Surrogate-Key', keys);
  res.setHeader('Server-Timing', SERVER_TIMING[state]);
  // Before the 304 decision: a 304 carries the Vary, ETag and Cache-Control its 200 would (RFC 9110 §15.4.5).
  vary(res, 'Accept-Encoding');
  if (isNotModified(req, page.etag)) {
    // The reader's copy carries the CSP that matched its nonce; a new CSP header would break its scripts.
    res.removeHeader('Content-Security-Policy');
    res.statusCode = 304;
    res.end();
    return;
  }
  sendPage(req, res, page, nonce);
}

/**
 * If-None-Match by `fresh` (Express's own freshness check): weak comparison, a list of tags, `*`; a request
 * saying `Cache-Control: no-cache` (an end-to-end reload) gets the page.
 */
function isNotModified(req: IncomingMessage, etag: string): boolean {
  return fresh(req.headers, { etag });
}

/**
 * The stored page with this response's nonce, as it was compressed when stored: gzip for any client taking
 * gzip (also one preferring br, which would cost a compression per response), identity otherwise, left to
 * the compression middleware only for clients that take neither identity nor gzip as offered.
 */
export function sendPage(req: IncomingMessage, res: ServerResponse, page: CachedPage, nonce: string): void {
  const nonceBytes = Buffer.from(nonce, 'utf8');
  const gzip = acceptsGzip(req.headers['accept-encoding']) ? gzipBody(page, nonceBytes) : null;
  const chunks = gzip ?? plainBody(page, nonceBytes);
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  vary(res, 'Accept-Encoding');
  // Already encoded: the compression middleware leaves the response alone.
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', byteLength(chunks));
  // Headers and every chunk in one writev. Uncorked before end(): when the compression middleware does take
  // over (a br-only client), its stream waits for the socket to drain, which a corked socket never does.
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.uncork();
  res.end();
}
