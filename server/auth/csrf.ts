/**
 * CSRF defence for state-changing requests (logout, the API proxy's POSTs), on top of SameSite=Lax cookies: the
 * Origin header (or, when a browser omits it, the Referer) must be one of the portal's own origins, or the very
 * origin the request was sent to (local runs and tests on 127.0.0.1). A request carrying neither is refused:
 * every browser that sends cookies on a POST sends at least one of them.
 *
 * Origins are compared whole (RFC 6454: scheme, host and port), after the URL parser's normalisation (lower-case
 * host, default port dropped): on an https portal a page served over plain http — one a network attacker could
 * write — is another origin, and so is the portal's host on another port.
 */
import type { Request } from 'express';
import { ALL_SITES, normaliseHost } from '../../shared/sites';

export type OriginCheck = (req: Request) => boolean;

/** The origin a header names, normalised; null for anything that is not an http(s) URL. */
function originOf(value: string | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The origin the browser sent this request to, when its host is not one of the portal's domains (those are only
 * ever the public origins above, whatever scheme reached this process behind the TLS terminator).
 */
function addressedOrigin(req: Request, portalHosts: ReadonlySet<string>): string | null {
  const host = req.headers.host ?? '';
  const hostname = normaliseHost(host);
  if (hostname === '' || portalHosts.has(hostname)) return null;
  return originOf(`${req.protocol}://${host}`);
}

/**
 * The check for a portal whose sites are served as `publicProtocol://{site domain}` (default port), plus any
 * `extraOrigins` (exact origins).
 */
export function sameOriginCheck(publicProtocol: 'http' | 'https', extraOrigins: readonly string[] = []): OriginCheck {
  const portalHosts = new Set(ALL_SITES.map((site) => site.domain));
  const allowed = new Set([...ALL_SITES.map((site) => `${publicProtocol}://${site.domain}`), ...extraOrigins]);
  return (req) => {
    const origin = originOf(req.get('origin')) ?? originOf(req.get('referer'));
    if (!origin) return false;
    if (allowed.has(origin)) return true;
    // The host this request was addressed to: the browser wrote it, an attacker's page cannot choose it.
    return origin === addressedOrigin(req, portalHosts);
  };
}
