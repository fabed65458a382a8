/**
 * Calls to the portal's same-origin /api proxy from page script. The session cookie goes along (the proxy adds
 * the token upstream, so script never holds it); the answer is always an envelope: a request that got no usable
 * answer becomes {code:500, msg:'失败', data:null}, as SPEC §8 says.
 */
import { NO_RESPONSE_ENVELOPE, type Envelope } from '../../shared/types/envelope';

export type ProxyFields = Record<string, string | number | boolean | null>;

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';
}

async function envelopeOf<T>(response: Response): Promise<Envelope<T | null>> {
  if (!response.headers.get('content-type')?.includes('application/json')) return { ...NO_RESPONSE_ENVELOPE };
  const body: unknown = await response.json();
  return isEnvelope(body) ? (body as Envelope<T | null>) : { ...NO_RESPONSE_ENVELOPE };
}

export async function proxyGet<T>(path: string, query: Record<string, string> = {}): Promise<Envelope<T | null>> {
  const search = new URLSearchParams(query).toString();
  try {
    const response = await fetch(search ? `${path}?${search}` : path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    return await envelopeOf<T>(response);
  } catch {
    return { ...NO_RESPONSE_ENVELOPE };
  }
}

export async function proxyPost<T>(path: string, body: ProxyFields = {}): Promise<Envelope<T | null>> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return await envelopeOf<T>(response);
  } catch {
    return { ...NO_RESPONSE_ENVELOPE };
  }
}
