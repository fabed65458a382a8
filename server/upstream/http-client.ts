/**
 * The one way the portal talks to the content API: node-fetch over keep-alive sockets, a timeout on every
 * call, and the envelope rules of docs/product.md §8 applied in one place.
 *
 * The CMS is a party that can be wrong or compromised (docs/security.md, "The content API is not trusted"): every
 * call goes to the configured origin only, and a redirect is never followed. A 3xx answer is a failed call
 * (counted as 'redirect', reported with the host it pointed at); its body is never read as data and never relayed,
 * so a reader's `token` header or a POST body can never reach another origin, nor the other origin's answer a reader.
 */
import http from 'node:http';
import https from 'node:https';
import fetch, { FetchError } from 'node-fetch';
import type { z } from 'zod';
import type { Envelope } from '../../shared/types/envelope';
import { isEnvelope, NO_RESPONSE_ENVELOPE } from '../../shared/types/envelope';
import { isWellFormed, wellFormed } from '../platform/well-formed';
import { locationHost } from '../platform/credentialed-fetch';

/** An upstream answer that arrived but was not a success: the promise rejects with the server's body (docs/product.md §8). */
export class UpstreamHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly call: string,
  ) {
    super(`upstream ${call} answered HTTP ${status}`);
    this.name = 'UpstreamHttpError';
  }
}

/**
 * ok: code 0 (and, when the caller gave a schema, data of that shape). empty: a well-formed non-zero code (the
 * CMS said no; what a code means is the caller's to decide). unavailable: no usable response at all (none, too
 * large, or code 0 with data of the wrong shape), which docs/product.md §8 turns into {code:500, msg:'失败'}; callers must
 * not mistake it for 'not found'.
 */
export type UpstreamOutcome = 'ok' | 'empty' | 'unavailable';

/** What the metrics see: the outcome, or why an answer was refused at the boundary. */
export type UpstreamCallOutcome = UpstreamOutcome | 'http-error' | 'invalid' | 'too-large' | 'cms-error' | 'redirect';

/** Only an 'ok' result's data is the caller's type; any other carries the envelope as it came (or docs/product.md §8's). */
export type UpstreamResult<T> =
  | { outcome: 'ok'; envelope: Envelope<T>; durationMs: number }
  | {
      outcome: 'empty' | 'unavailable';
      envelope: Envelope<unknown>;
      durationMs: number;
      /** Why the answer was unusable, for the log line (only when outcome is 'unavailable'). */
      reason?: string;
    };

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Path with query, e.g. `/list/3281/1.html?pagesize=5`. */
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** A short name for logs and metrics, e.g. 'list'. */
  call: string;
  /**
   * The call only reads, so it is safe to send again when a kept-alive socket turns out closed: every GET, and
   * POSTs that read (the content calls: the CMS takes most of its reads as POSTs). Default: GET only.
   */
  readOnly?: boolean;
  /**
   * The non-zero codes that are answers for this call (the content calls: 'not found'). Given, any other non-zero
   * code (50001 系统繁忙…) is counted as outcome 'cms-error', a failed call, so the error ratio and its alert see
   * it; not given (the account calls, whose codes are answers such as 'not signed in'), every one counts 'empty'.
   * The result is 'empty' either way: what a code means stays the caller's to decide.
   */
  answerCodes?: readonly number[];
}

export interface UpstreamClientOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Largest answer body read (bytes, after decompression); a larger one is dropped unread past the limit. */
  maxBodyBytes: number;
  onCall?: (call: string, outcome: UpstreamCallOutcome, durationMs: number) => void;
  /** The body of every upstream answer, by size (what the portal downloads per call). */
  onAnswer?: (call: string, bytes: number) => void;
  /** A 3xx answer, not followed: its status and the host its Location named (for the log line; never the full URL). */
  onRedirect?: (call: string, status: number, locationHost: string) => void;
}

/** An answer over the size limit: refused before it is parsed, sanitised or rendered. */
class AnswerTooLarge extends Error {}

export class UpstreamClient {
  private readonly baseUrl: string;
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  };
  /** For a call sent again after a stale socket: a new connection, never another socket from the pool. */
  private readonly freshAgents = {
    http: new http.Agent({ keepAlive: false }),
    https: new https.Agent({ keepAlive: false }),
  };

  private readonly origin: string;

  constructor(private readonly options: UpstreamClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
  }

  /** Without a schema the data is unchecked (`unknown`): for answers passed through as they are (the proxy). */
  request(req: UpstreamRequest): Promise<UpstreamResult<unknown>>;
  /** With a schema, code-0 data of another shape is a failed call ('unavailable'), never a half-filled value. */
  request<T>(req: UpstreamRequest, schema: z.ZodType<T, unknown>): Promise<UpstreamResult<T>>;
  async request<T>(req: UpstreamRequest, schema?: z.ZodType<T, unknown>): Promise<UpstreamResult<T | unknown>> {
    const result = await this.attempt(req, schema);
    // A kept-alive socket the upstream closed while idle fails the next request sent on it before any answer (Node's
    // agent drops a socket a second before the timeout the upstream announces, but not every upstream or proxy
    // announces one, and a busy event loop can miss it): a read is safe to send once more, on a fresh socket (what
    // browsers and undici do for idempotent requests). A write is not: it may have been acted on.
    // The other pooled sockets may be just as stale (an upstream that restarted closed them all), so it goes out on
    // a new connection.
    if (!result.staleSocket) return result;
    if (readsOnly(req)) return this.attempt(req, schema, this.freshAgents);
    this.options.onCall?.(req.call, 'unavailable', result.durationMs);
    return result;
  }

  private async attempt<T>(
    req: UpstreamRequest,
    schema?: z.ZodType<T, unknown>,
    agents: { http: http.Agent; https: https.Agent } = this.agents,
  ): Promise<UpstreamResult<T | unknown> & { staleSocket?: boolean }> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    const noAnswer = (reason: string) => ({ outcome: 'unavailable' as const, envelope: { ...NO_RESPONSE_ENVELOPE }, durationMs: elapsed(), reason });
    const refuse = (outcome: 'invalid' | 'too-large' | 'unavailable', reason: string): UpstreamResult<T> => {
      this.options.onCall?.(req.call, outcome, elapsed());
      return noAnswer(reason);
    };
    const url = this.urlOf(req.path);
    if (url === null) {
      clearTimeout(timer);
      return refuse('unavailable', 'path would leave the configured upstream origin');
    }
    try {
      const response = await fetch(url, {
        method: req.method,
        headers: { accept: 'application/json', ...(req.body ? { 'content-type': 'application/json' } : {}), ...req.headers },
        body: req.body ? JSON.stringify(req.body) : undefined,
        // Never followed: node-fetch would re-send the headers (the reader's token among them) and a 307/308's body
        // to wherever Location points. The 3xx comes back here as it is, and is refused below.
        redirect: 'manual',
        signal: controller.signal,
        size: this.options.maxBodyBytes,
        agent: (target) => (target.protocol === 'https:' ? agents.https : agents.http),
      });
      if (isRedirect(response.status)) {
        // Not read: the socket is dropped rather than drained of a body nobody will use.
        controller.abort();
        const host = locationHost(response.headers.get('location'), url);
        this.options.onRedirect?.(req.call, response.status, host);
        this.options.onCall?.(req.call, 'redirect', elapsed());
        return noAnswer(`answered HTTP ${response.status}, a redirect to ${host} (never followed)`);
      }
      if (Number(response.headers.get('content-length')) > this.options.maxBodyBytes) throw new AnswerTooLarge();
      const text = await response.text();
      this.options.onAnswer?.(req.call, Buffer.byteLength(text));
      const parsed = response.ok ? parseJson(text) : undefined;
      if (!response.ok || !isEnvelope(parsed)) {
        this.options.onCall?.(req.call, 'http-error', elapsed());
        throw new UpstreamHttpError(response.status, text, req.call);
      }
      if (parsed.code !== 0) {
        const answered = req.answerCodes === undefined || req.answerCodes.includes(parsed.code);
        this.options.onCall?.(req.call, answered ? 'empty' : 'cms-error', elapsed());
        return { outcome: 'empty', envelope: parsed, durationMs: elapsed() };
      }
      if (!schema) {
        this.options.onCall?.(req.call, 'ok', elapsed());
        return { outcome: 'ok', envelope: parsed, durationMs: elapsed() };
      }
      const checked = schema.safeParse(parsed.data);
      if (!checked.success) return refuse('invalid', `answer of the wrong shape: ${describeIssue(checked.error)}`);
      this.options.onCall?.(req.call, 'ok', elapsed());
      return { outcome: 'ok', envelope: { ...parsed, data: checked.data }, durationMs: elapsed() };
    } catch (error) {
      if (error instanceof UpstreamHttpError) throw error;
      if (error instanceof AnswerTooLarge || (error instanceof FetchError && error.type === 'max-size')) {
        // Stop reading the rest of it: the socket is dropped rather than drained.
        controller.abort();
        return refuse('too-large', `answer larger than ${this.options.maxBodyBytes} bytes (UPSTREAM_MAX_BODY_BYTES)`);
      }
      const reason = error instanceof Error ? error.message : String(error);
      // Reported by request(), once it knows whether the call is sent again: the metrics count calls, not attempts.
      if (isStaleSocket(error)) return { ...noAnswer(reason), staleSocket: true };
      return refuse('unavailable', reason);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The URL of a call: the configured origin and the call's path, or null when the two would read as another origin
   * (a path not starting with '/', or one a URL parser reads as userinfo or a host): credentials go nowhere else.
   */
  private urlOf(path: string): string | null {
    if (!path.startsWith('/')) return null;
    const url = this.baseUrl + path;
    try {
      return new URL(url).origin === this.origin ? url : null;
    } catch {
      return null;
    }
  }

  close(): void {
    for (const agent of [this.agents.http, this.agents.https, this.freshAgents.http, this.freshAgents.https]) agent.destroy();
  }
}

/** Every 3xx: this client sends no conditional requests, so even a 304 would be a CMS answering something else. */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

function isStaleSocket(error: unknown): boolean {
  return error instanceof FetchError && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
}

function readsOnly(req: UpstreamRequest): boolean {
  return req.method === 'GET' || req.readOnly === true;
}

/**
 * What only an answer holding a text to mend can contain: a `\uD800`–`\uDFFF` escape (only JSON holding one can
 * decode to a lone surrogate: raw bytes cannot, the UTF-8 decoder already made any broken sequence U+FFFD), an
 * escape of a C0 control (JSON must escape them: `\u0000`–`\u001F`, `\b`, `\f`; `\t`, `\n` and `\r` mend
 * nothing but are matched too), or a noncharacter U+FFFE/U+FFFF, raw or escaped. Upper- or lower-case hex, as
 * JSON allows.
 */
const MENDABLE = /\\u[dD][89a-fA-F]|\\u00[01][0-9a-fA-F]|\\[bf]|\\u[fF]{3}[eEfF]|[\ufffe\uffff]/;

/**
 * The answer's JSON, every string in it (keys too) well-formed: a lone surrogate from the CMS would make
 * `encodeURIComponent` throw wherever its text is put in a link, so it is U+FFFD from here on (docs/security.md).
 * The reviver only runs for an answer holding such an escape; the rest parse as fast as before.
 */
function parseJson(text: string): unknown {
  try {
    return MENDABLE.test(text) ? JSON.parse(text, toWellFormed) : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Every text of the answer well-formed and without characters no page, feed or XML 1.0 may carry (C0 controls
 * but tab, line feed and carriage return; U+FFFE, U+FFFF): a NUL in a title reached the HTML as it was. A session
 * token is no text: it is kept as sent, and one that cannot stand in a header is a failed sign-in (auth).
 */
function toWellFormed(key: string, value: unknown): unknown {
  if (typeof value === 'string') return key === 'token' ? value : wellFormed(value).replace(UNWRITABLE, '');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.every(isWellFormed)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [wellFormed(key), item]));
}

/** C0 controls but tab, LF and CR, and the noncharacters U+FFFE and U+FFFF. */
// eslint-disable-next-line no-control-regex
const UNWRITABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** The first problem zod found, with where it is (e.g. `lists.0.title: expected string`), for the log line. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown';
  const where = issue.path.length > 0 ? issue.path.join('.') : '(data)';
  return `${where}: ${issue.message}`;
}
