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
export function securityHeaders(extraOrigins: readonly string[]): RequestHandler {
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
    // HSTS is the TLS terminator's to set; this server speaks plain HTTP behind it.
    strictTransportSecurity: false,
    // Not helmet's no-referrer: under it browsers send `Origin: null` even on same-origin form POSTs, which would
    // defeat the Origin check of logout and the API proxy. same-origin still tells other sites nothing.
    referrerPolicy: { policy: 'same-origin' },
  });
}
