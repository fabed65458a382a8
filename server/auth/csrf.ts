/**
 * CSRF defence for state-changing requests (logout, the API proxy's POSTs), on top of SameSite=Lax cookies: the
 * Origin header (or, when a browser omits it, the Referer) must be one of the portal's own origins, or the very
 * origin the request was sent to (local runs and tests on 127.0.0.1). A request carrying neither is refused:
 * every browser that sends cookies on a POST sends at least one of them.
 */
import type { Request } from 'express';
import { ALL_SITES, normaliseHost } from '../../shared/sites';

const PORTAL_HOSTS = new Set(ALL_SITES.map((site) => site.domain));

function originOfHeader(value: string | undefined): URL | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

export function isSameOriginRequest(req: Request, extraOrigins: readonly string[] = []): boolean {
  const origin = originOfHeader(req.get('origin')) ?? originOfHeader(req.get('referer'));
  if (!origin || (origin.protocol !== 'https:' && origin.protocol !== 'http:')) return false;
  if (extraOrigins.includes(origin.origin)) return true;
  // The site's own domain (no port: the portal's sites are served on default ports behind TLS).
  if (!origin.port && PORTAL_HOSTS.has(origin.hostname)) return true;
  // The host this request was addressed to: the browser wrote it, an attacker's page cannot choose it.
  const host = (req.headers.host ?? '').toLowerCase();
  return host !== '' && origin.host === host && normaliseHost(host) !== '';
}
