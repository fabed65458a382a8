/**
 * Typed shorthands over `callApi` (interactions-api.ts) for page script that reads its own calls' data: the
 * personal center, the feedback form, the WeChat share signature. Same rules: the session cookie goes along,
 * the proxy adds the token upstream, and the answer is always a docs/product.md §8 envelope.
 */
import type { Envelope } from '../../types/envelope';
import { callApi } from './interactions-api';

export type ProxyFields = Record<string, string | number | boolean | null>;

/** The data is the caller's to validate: the CMS's shapes are not guaranteed. */
export async function proxyGet<T>(path: string, query: Record<string, string> = {}): Promise<Envelope<T | null>> {
  const search = new URLSearchParams(query).toString();
  return (await callApi({ method: 'GET', path: search ? `${path}?${search}` : path })) as Envelope<T | null>;
}

export async function proxyPost<T>(path: string, body: ProxyFields = {}): Promise<Envelope<T | null>> {
  return (await callApi({ method: 'POST', path, body })) as Envelope<T | null>;
}
