/**
 * The one response path for pages (docs/architecture.md, "One response path"): which headers a page response
 * carries (X-Cache, ETag, Age, Cache-Control, Surrogate-Key, Server-Timing, Retry-After), what it tells the
 * access log and the metrics, and how a held page is written. The cached-hit path in front of Express
 * (page-hits.ts) and the page handler's every branch (HIT, STALE, an expired page re-rendered, a streamed MISS
 * or PASS, the error page) answer through these functions; every held page, on either path, through writeHeld.
 * Works on plain node:http objects: the hit path has no Express request or response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type { CachePolicy } from '../cache/entry';
import { PRIVATE_NO_STORE, sharedCacheControl, surrogateKey } from '../cache/headers';
import type { HeldLookup } from '../cache/page-cache';
import { etagOf, type HeldPage, type PageForm } from '../cache/stored-page';
import type { SecurityHeaders } from './security';
import { pageFormFor } from './accept-encoding';

/** How a page was served, as X-Cache and the access log say it (docs/cache.md). */
export type HeldState = 'HIT' | 'STALE';
export type RenderedState = 'MISS' | 'PASS';
/** How a held page is written: read from the cache, or (MISS) rendered whole for this request and stored first. */
export type WrittenState = HeldState | 'MISS';

/** What shared caches (a CDN) may keep: the page under its policy with its tags, or nothing (`private, no-store`). */
export type Sharing = { policy: CachePolicy; tags: Iterable<string> } | null;

export type Header = readonly [name: string, value: string];

/** Seconds since a held page was stored: its `Age`. */
export function ageOf(lookup: HeldLookup, now = Date.now()): number {
  return Math.max(0, Math.floor((now - lookup.storedAt) / 1000));
}

export function serverTiming(parts: Record<string, number | string>): string {
  return Object.entries(parts)
    .map(([name, value]) => (typeof value === 'number' ? `${name};dur=${value.toFixed(1)}` : `${name};desc="${value}"`))
    .join(', ');
}

const HELD_TIMING: Record<WrittenState, string> = {
  HIT: serverTiming({ cache: 'HIT' }),
  STALE: serverTiming({ cache: 'STALE' }),
  MISS: serverTiming({ cache: 'MISS' }),
};

/** Surrogate-Key of a held entry's tags: the same array on every L1 hit, so the header is built once. */
const surrogateKeys = new WeakMap<readonly string[], string | undefined>();

function heldSurrogateKey(tags: readonly string[]): string | undefined {
  if (surrogateKeys.has(tags)) return surrogateKeys.get(tags);
  const value = surrogateKey(tags);
  surrogateKeys.set(tags, value);
  return value;
}

/** Cache-Control of a policy: policies are kept (runtime-policy.ts) until an override changes them, so built once each. */
const cacheControls = new WeakMap<CachePolicy, string>();

function heldCacheControl(policy: CachePolicy): string {
  let value = cacheControls.get(policy);
  if (value === undefined) cacheControls.set(policy, (value = sharedCacheControl(policy)));
  return value;
}

/** Cache-Control and Surrogate-Key: public under the page's policy with its tags, else private with none. */
function sharingHeaders(sharing: Sharing, keys = sharing ? surrogateKey(sharing.tags) : undefined): Header[] {
  if (!sharing) return [['Cache-Control', PRIVATE_NO_STORE]];
  const headers: Header[] = [['Cache-Control', sharedCacheControl(sharing.policy)]];
  if (keys) headers.push(['Surrogate-Key', keys]);
  return headers;
}

/**
 * A page served from the cache: always shareable (the portal holds it as sent), with its age. As flat
 * name, value pairs appended to `out` (what `writeHead` takes).
 */
function appendHeldHeaders(out: string[], state: WrittenState, lookup: HeldLookup, form: PageForm, ageSeconds: number, policy: CachePolicy): void {
  out.push('X-Cache', state, 'ETag', etagOf(lookup.page, form), 'Age', String(ageSeconds), 'Cache-Control', heldCacheControl(policy));
  const keys = heldSurrogateKey(lookup.tags);
  if (keys) out.push('Surrogate-Key', keys);
  out.push('Server-Timing', HELD_TIMING[state]);
}

export interface StreamedPage {
  /** MISS: anonymous, stored if the render ends clean; PASS: rendered for one reader, never stored. */
  state: RenderedState;
  status: number;
  /** Decided when the headers go out (downstream-caching.ts): only a clean anonymous 200 is shared. */
  sharing: Sharing;
  upstreamMs: number;
  renderMs: number;
  /** An editor's preview: never shared (PASS), and never indexed. */
  preview?: boolean;
}

/** A page rendered for this request and streamed: its headers go out with the shell. */
export function streamedHeaders(page: StreamedPage): Header[] {
  const headers: Header[] = [
    ['X-Cache', page.state],
    ...sharingHeaders(page.sharing),
    ['Server-Timing', serverTiming({ cache: page.state, upstream: page.upstreamMs, render: page.renderMs })],
  ];
  // The page's own data could not be had: say when to come back.
  if (page.status === 503) headers.push(['Retry-After', '30']);
  if (page.preview) headers.push(['X-Robots-Tag', 'noindex']);
  return headers;
}

/** The error page (a shell that failed, or an error the handler caught): never kept by anyone. */
export function errorHeaders(): Header[] {
  return [['Cache-Control', PRIVATE_NO_STORE]];
}

export function setHeaders(res: ServerResponse, headers: readonly Header[]): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

/**
 * If-None-Match by `fresh` (Express's own freshness check): weak comparison, a list of tags, `*`; a request
 * saying `Cache-Control: no-cache` (an end-to-end reload) gets the page.
 */
function isNotModified(req: IncomingMessage, etag: string): boolean {
  return fresh(req.headers, { etag });
}

const HTML = 'text/html; charset=utf-8';

/** Throws for a page held without `form` (PageCache.lookupForm read another). */
function bodyOf(page: HeldPage, form: PageForm): Buffer {
  const body = page[form];
  if (!body) throw new Error('the page was read without the form this response sends');
  return body;
}

/**
 * The head of a held page's answer, made once per page, state, form, policy and Vary: the request id, the security
 * headers with the page's CSP (in place of the nonce CSP the chain's middleware set), the Vary, the held headers
 * and the body's, as the flat name, value list `writeHead` takes. A response copies it and writes its own request
 * id and `Age` into it: no header is built, concatenated or looked up per response, and every value is a string
 * Node has checked before (a CSP of ~700 characters is not flattened and scanned on each hit).
 */
interface HeldHead {
  etag: string;
  scripts: string;
  state: WrittenState;
  form: PageForm;
  policy: CachePolicy;
  varyUserAgent: boolean;
  /** The form's ETag, for If-None-Match. */
  validator: string;
  headers: readonly string[];
  /** Where the values of `Age` and `Content-Length` go; a 304 sends the headers before `bodyAt`. */
  ageAt: number;
  lengthAt: number;
  bodyAt: number;
}

/** What one answer with a held page is made of, beside the request and response. */
export interface HeldAnswer {
  state: WrittenState;
  lookup: HeldLookup;
  policy: CachePolicy;
  requestId: string;
  /** The page's route answers phones elsewhere (classify.ts): `Vary: User-Agent`. */
  varyUserAgent: boolean;
}

/** Kinds of heads one entry may need: HIT and STALE, three forms, with and without Vary: User-Agent, a policy changed once. */
const HEADS_PER_ENTRY = 24;

/**
 * Heads by the entry's tags (the same array on every hit of an L1 entry, and of an entry read from Redis while
 * its metadata is remembered: entry-codec.ts), then by what else they are made of. One per portal, shared by the
 * hit path and the chain (portal.ts): the security headers are the portal's own.
 */
export class HeldHeads {
  private readonly byTags = new WeakMap<readonly string[], HeldHead[]>();

  constructor(private readonly security: SecurityHeaders) {}

  headOf(answer: HeldAnswer, form: PageForm): HeldHead {
    const { page, tags } = answer.lookup;
    let heads = this.byTags.get(tags);
    if (!heads) this.byTags.set(tags, (heads = []));
    for (const head of heads) if (head.etag === page.etag && head.scripts === page.scripts && isHeadOf(head, answer, form)) return head;
    const head = this.make(answer, form);
    if (heads.length >= HEADS_PER_ENTRY) heads.shift();
    heads.push(head);
    return head;
  }

  private make({ state, lookup, policy, varyUserAgent }: HeldAnswer, form: PageForm): HeldHead {
    const headers = ['X-Request-Id', ''];
    this.security.appendShared(headers, lookup.page.scripts);
    if (varyUserAgent) headers.push('Vary', 'User-Agent, Accept-Encoding');
    const heldAt = headers.length;
    appendHeldHeaders(headers, state, lookup, form, 0, policy);
    // Where appendHeldHeaders put Age's value (found, not counted, so its order may change).
    const ageAt = headers.indexOf('Age', heldAt) + 1;
    if (!varyUserAgent) headers.push('Vary', 'Accept-Encoding');
    const bodyAt = headers.length;
    headers.push('Content-Type', HTML);
    if (form !== 'identity') headers.push('Content-Encoding', form);
    headers.push('Content-Length', '');
    const { etag, scripts } = lookup.page;
    return { etag, scripts, state, form, policy, varyUserAgent, validator: etagOf(lookup.page, form), headers, ageAt, lengthAt: headers.length - 1, bodyAt };
  }
}

function isHeadOf(head: HeldHead, answer: HeldAnswer, form: PageForm): boolean {
  return head.state === answer.state && head.form === form && head.policy === answer.policy && head.varyUserAgent === answer.varyUserAgent;
}

/**
 * Every answer with a held page, in front of Express (page-hits.ts) and in the chain (serve-cached.ts): its head
 * (HeldHeads) with this response's request id and `Age`, then a 304 when the reader's copy is current, else the
 * stored form as the body of the same call. One `writeHead` (whose list replaces any header of the same name the
 * chain's middleware set) and one `end`. Returns the body's length (undefined for a 304), which the log and the
 * metrics are told (no header is left on the response to ask).
 */
export function writeHeld(req: IncomingMessage, res: ServerResponse, heads: HeldHeads, answer: HeldAnswer): number | undefined {
  const form = pageFormFor(req.headers['accept-encoding']);
  const head = heads.headOf(answer, form);
  const headers = head.headers.slice();
  headers[1] = answer.requestId;
  headers[head.ageAt] = String(ageOf(answer.lookup));
  if (isNotModified(req, head.validator)) {
    headers.length = head.bodyAt;
    res.writeHead(304, headers);
    res.end();
    return undefined;
  }
  const body = bodyOf(answer.lookup.page, form);
  headers[head.lengthAt] = String(body.length);
  res.writeHead(200, headers);
  res.end(body);
  return body.length;
}

/**
 * What a page response tells the access log and the metrics (request-context.ts, platform/metrics.ts): its
 * route label, its site, and the upstream time its loaders waited for (rendered pages only). Kept in the
 * response's locals, where the chain's log and metrics read them; the hit path gives its response locals too.
 */
export interface PageFacts {
  route: string;
  siteId: number;
  upstreamMs?: number;
}

type WithLocals = ServerResponse & { locals?: Record<string, unknown> };

export function notePage(res: ServerResponse, facts: Partial<PageFacts>): void {
  const target = res as WithLocals;
  const locals = (target.locals ??= {});
  if (facts.route !== undefined) locals.metricsRoute = facts.route;
  if (facts.siteId !== undefined) locals.siteId = facts.siteId;
  // Rounded to a tenth of a millisecond, as the log prints every time.
  if (facts.upstreamMs !== undefined) locals.upstreamMs = Math.round(facts.upstreamMs * 10) / 10;
}

/** The facts noted for this response (for the hit path's own log line and metrics). */
export function pageFactsOf(res: ServerResponse): { route: string; siteId: unknown } {
  const locals = (res as WithLocals).locals ?? {};
  return { route: typeof locals.metricsRoute === 'string' ? locals.metricsRoute : 'other', siteId: locals.siteId };
}
