/**
 * The one way the portal talks to the content API: node-fetch over keep-alive sockets, a timeout on every
 * call, and the envelope rules of SPEC §8 applied in one place.
 */
import http from 'node:http';
import https from 'node:https';
import fetch from 'node-fetch';
import type { Envelope } from '../../shared/types/envelope';
import { isEnvelope, NO_RESPONSE_ENVELOPE } from '../../shared/types/envelope';

/** An upstream answer that arrived but was not a success: the promise rejects with the server's body (SPEC §8). */
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
 * ok: code 0. empty: a well-formed non-zero code (the CMS said no, e.g. not found). unavailable: no response
 * at all, which SPEC §8 turns into {code:500, msg:'失败'}; callers must not mistake it for 'not found'.
 */
export type UpstreamOutcome = 'ok' | 'empty' | 'unavailable';

export interface UpstreamResult<T> {
  outcome: UpstreamOutcome;
  envelope: Envelope<T | null>;
  durationMs: number;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Path with query, e.g. `/list/3281/1.html?pagesize=5`. */
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** A short name for logs and metrics, e.g. 'list'. */
  call: string;
}

export interface UpstreamClientOptions {
  baseUrl: string;
  timeoutMs: number;
  onCall?: (call: string, outcome: UpstreamOutcome | 'http-error', durationMs: number) => void;
  /** The body of every upstream answer, by size (what the portal downloads per call). */
  onAnswer?: (call: string, bytes: number) => void;
}

export class UpstreamClient {
  private readonly baseUrl: string;
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  };

  constructor(private readonly options: UpstreamClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async request<T>(req: UpstreamRequest): Promise<UpstreamResult<T>> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    try {
      const response = await fetch(this.baseUrl + req.path, {
        method: req.method,
        headers: { accept: 'application/json', ...(req.body ? { 'content-type': 'application/json' } : {}), ...req.headers },
        body: req.body ? JSON.stringify(req.body) : undefined,
        signal: controller.signal,
        agent: (url) => (url.protocol === 'https:' ? this.agents.https : this.agents.http),
      });
      const text = await response.text();
      this.options.onAnswer?.(req.call, Buffer.byteLength(text));
      const parsed = response.ok ? parseJson(text) : undefined;
      if (!response.ok || !isEnvelope(parsed)) {
        this.options.onCall?.(req.call, 'http-error', elapsed());
        throw new UpstreamHttpError(response.status, text, req.call);
      }
      const envelope = parsed as Envelope<T | null>;
      const outcome: UpstreamOutcome = envelope.code === 0 ? 'ok' : 'empty';
      this.options.onCall?.(req.call, outcome, elapsed());
      return { outcome, envelope, durationMs: elapsed() };
    } catch (error) {
      if (error instanceof UpstreamHttpError) throw error;
      this.options.onCall?.(req.call, 'unavailable', elapsed());
      return { outcome: 'unavailable', envelope: { ...NO_RESPONSE_ENVELOPE }, durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
