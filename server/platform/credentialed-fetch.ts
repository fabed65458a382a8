/**
 * A request that carries a credential (the edges' EDGE_PURGE_TOKEN, INTERNAL_TOKEN from the cache CLI and from a
 * peer purge) goes to the
 * origin it was configured for and nowhere else. fetch follows a redirect by default and sends the same headers,
 * token included, to whatever Location names; here a 3xx is an answer of its own, never followed, its body never
 * read: whoever sent it did not do what was asked (an edge that redirects a PURGE has purged nothing). The content
 * API's client (http-client.ts) applies the same rule to every upstream call.
 */

export type CredentialedAnswer = { redirect: null; response: Response } | { redirect: RedirectRefused; response: null };

/** A 3xx refused: its status and the host its Location named (for a message; never the whole URL). */
export interface RedirectRefused {
  status: number;
  locationHost: string;
}

export interface CredentialedInit {
  method?: string;
  headers: Record<string, string>;
  /** A request body (a peer purge's announcement, JSON). */
  body?: string;
  signal?: AbortSignal;
}

/** `init` sent to `url` only; a 3xx comes back as `redirect`, with its connection's body cancelled. */
export async function fetchWithCredential(url: URL, init: CredentialedInit): Promise<CredentialedAnswer> {
  const response = await fetch(url, { ...init, redirect: 'manual' });
  if (!isRedirect(response.status)) return { redirect: null, response };
  await response.body?.cancel().catch(() => undefined);
  return { redirect: { status: response.status, locationHost: locationHost(response.headers.get('location'), url) }, response: null };
}

/** "answered 307, a redirect to other.example:8080, not followed": why a credentialed call got no answer. */
export function describeRedirect(refused: RedirectRefused): string {
  return `answered ${refused.status}, a redirect to ${refused.locationHost}, not followed (the credential goes to the configured origin only)`;
}

/** Every 3xx: these calls send no conditional request, so even a 304 answers something else. */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** The host a Location names, resolved against the request as a browser would (a path, `//host/…`); for messages. */
export function locationHost(location: string | null, requestUrl: URL | string): string {
  if (location === null || location === '') return '(no Location)';
  try {
    return new URL(location, requestUrl).host || '(no host)';
  } catch {
    return '(unreadable Location)';
  }
}
