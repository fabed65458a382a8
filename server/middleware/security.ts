/**
 * helmet with a strict CSP: scripts run only with this response's nonce ('strict-dynamic' lets the nonce'd
 * entry load its own chunks), no plugins, no framing by other sites. A fresh nonce is made per request.
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newNonce } from '../render/page-handler';

export function nonceForRequest(): RequestHandler {
  return (_req, res, next) => {
    res.locals.nonce = newNonce();
    next();
  };
}

/** `extraOrigins`: where images and media may come from besides this origin (the upstream's media host in dev). */
/** Features a news page never uses, switched off for the page and anything it embeds. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), browsing-topics=()';

export function permissionsPolicy(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    next();
  };
}

/** `https`: readers reach the sites over TLS (the terminator in front), so browsers are told to stay on it. */
export function securityHeaders(extraOrigins: readonly string[], https: boolean): RequestHandler {
  const nonce = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as unknown as { locals: { nonce: string } }).locals.nonce}'`;
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [nonce, "'strict-dynamic'", "'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', ...extraOrigins],
        mediaSrc: ["'self'", 'blob:', 'https:', ...extraOrigins],
        // hls.js fetches playlists and segments from the media hosts.
        connectSrc: ["'self'", ...extraOrigins],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Images and videos come from the CMS's media hosts.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    // Sites are read over https through the TLS terminator: browsers are told to stay there (never on plain http).
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Not helmet's no-referrer: under it browsers send `Origin: null` even on same-origin form POSTs, which would
    // defeat the Origin check of logout and the API proxy. same-origin still tells other sites nothing.
    referrerPolicy: { policy: 'same-origin' },
  });
}
