/**
 * The browser's calls to the CMS through the portal's same-origin proxy (/api/*, which adds the reader's token
 * server-side), and the interaction calls built on them. Every call resolves to a docs/product.md §8 envelope and never
 * throws: no answer → {code:500, msg:'失败', data:null}; an HTTP error → its JSON body (the proxy answers its
 * own refusals and the CMS's errors as envelopes). Callers decide by `code`: 0 is success, anything else is a
 * failure for a toggle and "nothing known" for a read.
 */
import { batchExistCall, likeCountCall, readBatchExist, readCount, readToggle, toggleCall } from '../../interactions';
import { isEnvelope, NO_RESPONSE_ENVELOPE, type Envelope } from '../../types/envelope';
import type { ApiCall, InteractionGroup, InteractionTarget } from '../../types/interactions';

/** Where calls go: the page's own origin in the browser; a test points it at a running portal. */
export interface ApiTransport {
  /** '' for same-origin; otherwise an origin such as 'http://127.0.0.1:3000'. */
  base: string;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

const browserTransport: ApiTransport = {
  base: '',
  // Bound late: `fetch` detached from window throws 'Illegal invocation' in some browsers.
  fetch: (url, init) => window.fetch(url, init),
};

async function envelopeOf(response: Response): Promise<Envelope<unknown>> {
  try {
    const body: unknown = await response.json();
    if (isEnvelope(body)) return { code: body.code, msg: typeof body.msg === 'string' ? body.msg : '', data: body.data ?? null };
  } catch {
    // not JSON (a rate limit page, a proxy in between): the status stands in below
  }
  return { code: response.ok ? NO_RESPONSE_ENVELOPE.code : response.status, msg: NO_RESPONSE_ENVELOPE.msg, data: null };
}

/**
 * One proxied call. `path` starts with /api/. The result's data is unchecked (`unknown`): readers of each call
 * validate what they use, since the CMS's shapes are not guaranteed.
 */
export async function callApi<Body extends object>(call: ApiCall<Body>, transport: ApiTransport = browserTransport): Promise<Envelope<unknown>> {
  const init: RequestInit =
    call.method === 'POST'
      ? {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(call.body),
        }
      : { method: 'GET', credentials: 'same-origin', headers: { accept: 'application/json' } };
  try {
    return await envelopeOf(await transport.fetch(transport.base + call.path, init));
  } catch {
    return { ...NO_RESPONSE_ENVELOPE };
  }
}

export type ToggleResult = { ok: true; on: boolean } | { ok: false; code: number };

/** Flips one mark; ok with the mark as the CMS now has it, or the failing code. */
export async function toggleInteraction(target: InteractionTarget, transport?: ApiTransport): Promise<ToggleResult> {
  const envelope = await callApi(toggleCall(target), transport);
  const on = readToggle(target.kind, envelope);
  if (on !== null) return { ok: true, on };
  return { ok: false, code: envelope.code === 0 ? NO_RESPONSE_ENVELOPE.code : envelope.code };
}

/** The marks of a whole group in one batch_exist call; null when it failed (nothing known). */
export async function fetchGroupStates(group: InteractionGroup, transport?: ApiTransport): Promise<Map<number, boolean> | null> {
  const call = batchExistCall(group);
  if (!call) return new Map();
  return readBatchExist(await callApi(call, transport), group.ids);
}

/** An article's like count; null when unknown. */
export async function fetchLikeCount(catid: number, id: number, transport?: ApiTransport): Promise<number | null> {
  return readCount(await callApi(likeCountCall(catid, id), transport));
}
