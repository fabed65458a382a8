/**
 * Purges at the edge: the Varnish caches in front of the portal (deploy/varnish/default.vcl) drop, or mark stale,
 * the pages holding given tags or at given URLs. Each edge in EDGE_PURGE_URLS gets the same order at once, each
 * within EDGE_PURGE_TIMEOUT_MS, and each answer is reported on its own, so the publish hook can say which edges
 * have the change. The wire form is the VCL's: `PURGE /` with `X-Purge-Token`, `X-Purge-Mode: soft|hard` and
 * `X-Purge-Keys` (xkeys: a tag is its own key; a URL is `path:{host}{path}`, every query variant of the path);
 * the edge answers 200 with `X-Purged`. The portal is purged first: an edge refetching before the portal has
 * dropped its copy would store the old page again.
 */
import { siteOfKnownHost } from '../../shared/sites';
import type { Config } from '../platform/config';
import { describeRedirect, fetchWithCredential } from '../platform/credentialed-fetch';
import { isValidTag } from './tags';

export interface EdgePurgeOrder {
  tags?: readonly string[];
  /** Absolute page URLs, as readers ask for them (their host is the site's). */
  urls?: readonly string[];
  /** Stale (served while refetched) rather than gone. */
  soft: boolean;
}

export type EdgeAck = { edge: string; ok: true; purged: number; ms: number } | { edge: string; ok: false; reason: string; ms: number };

export interface EdgePurgeOptions {
  /** Origins of the edges (EDGE_PURGE_URLS). */
  edges: readonly string[];
  /** EDGE_PURGE_TOKEN: the VCL refuses any PURGE without it. */
  token: string;
  /** Per edge, for all of its requests. */
  timeoutMs: number;
}

export class EdgePurgeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EdgePurgeInputError';
  }
}

/** Request headers stay well under Varnish's http_req_hdr_len (8 KiB by default): longer key lists are split. */
export const MAX_KEYS_HEADER = 4000;

export const PURGE_TOKEN_HEADER = 'x-purge-token';

/** The xkey under which the VCL files every object of a URL's path, whatever its query. */
export function pathKeyOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EdgePurgeInputError(`url: ${JSON.stringify(url)} is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new EdgePurgeInputError(`url: ${JSON.stringify(url)} is not http(s)`);
  // The VCL files a page under its site's domain, whatever the Host was spelt (another case, a port, a trailing
  // dot, the bare base domain), and the path as sent; the portal serves pages at their canonical path, which is
  // what URL parsing produces. A comma would split the key in xkey's list: the VCL writes %2C.
  const host = siteOfKnownHost(parsed.host)?.domain ?? parsed.host;
  return `path:${host}${parsed.pathname.replace(/,/g, '%2C')}`;
}

/** The xkeys of an order: its tags, then its URLs' path keys; refused whole if any is unusable. */
export function keysOf(order: EdgePurgeOrder): string[] {
  const tags = order.tags ?? [];
  const bad = tags.find((tag) => !isValidTag(tag));
  if (bad !== undefined) throw new EdgePurgeInputError(`tag: ${JSON.stringify(bad)} is not a cache tag`);
  return [...new Set([...tags, ...(order.urls ?? []).map(pathKeyOf)])];
}

/** Keys joined by spaces, in as few headers as fit MAX_KEYS_HEADER each. */
export function keyBatches(keys: readonly string[]): string[] {
  const batches: string[] = [];
  let current = '';
  for (const key of keys) {
    if (current !== '' && current.length + 1 + key.length > MAX_KEYS_HEADER) {
      batches.push(current);
      current = '';
    }
    current = current === '' ? key : `${current} ${key}`;
  }
  if (current !== '') batches.push(current);
  return batches;
}

export class EdgePurger {
  constructor(private readonly options: EdgePurgeOptions) {}

  get edges(): readonly string[] {
    return this.options.edges;
  }

  /** One acknowledgement per edge, in EDGE_PURGE_URLS's order; throws EdgePurgeInputError before sending anything. */
  async purge(order: EdgePurgeOrder): Promise<EdgeAck[]> {
    const batches = keyBatches(keysOf(order));
    const mode = order.soft ? 'soft' : 'hard';
    return Promise.all(this.options.edges.map((edge) => this.purgeEdge(edge, batches, mode)));
  }

  private async purgeEdge(edge: string, batches: readonly string[], mode: 'soft' | 'hard'): Promise<EdgeAck> {
    const started = performance.now();
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    let purged = 0;
    try {
      for (const keys of batches) {
        const answer = await this.send(edge, keys, mode, signal);
        if (typeof answer === 'string') return { edge, ok: false, reason: answer, ms: elapsed() };
        purged += answer;
      }
    } catch (error) {
      return { edge, ok: false, reason: this.failureOf(error, signal), ms: elapsed() };
    }
    return { edge, ok: true, purged, ms: elapsed() };
  }

  /** The number of objects the edge touched, or why it did not acknowledge. */
  private async send(edge: string, keys: string, mode: 'soft' | 'hard', signal: AbortSignal): Promise<number | string> {
    const { redirect, response } = await fetchWithCredential(new URL('/', edge), {
      method: 'PURGE',
      headers: { [PURGE_TOKEN_HEADER]: this.options.token, 'x-purge-mode': mode, 'x-purge-keys': keys },
      signal,
    });
    // Not followed: the token and keys go to this edge only, and an edge that redirects has purged nothing.
    if (redirect !== null) return describeRedirect(redirect);
    await response.arrayBuffer();
    if (response.status === 403) return 'refused (403): the edge does not take this EDGE_PURGE_TOKEN from this address (VCL purgers ACL)';
    if (response.status !== 200) return `answered ${response.status} ${response.statusText}`.trim();
    const purged = Number(response.headers.get('x-purged'));
    if (!Number.isInteger(purged) || purged < 0) return 'answered 200 without a count (X-Purged): not the portal’s VCL?';
    return purged;
  }

  private failureOf(error: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `no answer within ${this.options.timeoutMs} ms`;
    // fetch says "fetch failed" and puts the socket's error (ECONNREFUSED, ENOTFOUND, …) in `cause`. Read by
    // shape, not instanceof: the error may come from another realm (a test runner's sandbox).
    const { cause } = fieldsOf(error);
    const { code, message } = fieldsOf(cause ?? error);
    const text = typeof message === 'string' ? message : String(cause ?? error);
    return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
  }
}

function fieldsOf(value: unknown): { cause?: unknown; code?: unknown; message?: unknown } {
  return typeof value === 'object' && value !== null ? (value as { cause?: unknown; code?: unknown; message?: unknown }) : {};
}

/** The purger of the configured edges; null when EDGE_PURGE_URLS names none (config.ts requires the token with them). */
export function edgePurgerOf(config: Pick<Config, 'EDGE_PURGE_URLS' | 'EDGE_PURGE_TOKEN' | 'EDGE_PURGE_TIMEOUT_MS'>): EdgePurger | null {
  if (config.EDGE_PURGE_URLS.length === 0 || !config.EDGE_PURGE_TOKEN) return null;
  const edges = config.EDGE_PURGE_URLS.map((url) => new URL(url).origin);
  return new EdgePurger({ edges, token: config.EDGE_PURGE_TOKEN, timeoutMs: config.EDGE_PURGE_TIMEOUT_MS });
}

/** "acknowledged by A (3 objects), B (0 objects); missing C (no answer within 2000 ms)": for logs and the hook's answer. */
export function describeAcks(acks: readonly EdgeAck[]): string {
  const acknowledged = acks.flatMap((ack) => (ack.ok ? [`${ack.edge} (${ack.purged} objects)`] : []));
  const missing = acks.flatMap((ack) => (ack.ok ? [] : [`${ack.edge} (${ack.reason})`]));
  const parts = [`acknowledged by ${acknowledged.length > 0 ? acknowledged.join(', ') : 'no edge'}`];
  if (missing.length > 0) parts.push(`missing ${missing.join(', ')}`);
  return parts.join('; ');
}
