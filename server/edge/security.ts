/**
 * helmet with a strict CSP (docs/security-headers.md): scripts run only when allowed by this response's nonce or,
 * on a page served as stored for every reader, by their SHA-256 ('strict-dynamic' lets an allowed script load
 * the bundle's chunks and what the bundle loads), no plugins, no framing by other sites. A fresh nonce is made
 * per request; a stored page brings its scripts' hashes (server/cache/stored-page.ts).
 *
 * helmet decides the headers; it runs once, at start, and what it sets is replayed on every response (only the
 * CSP's script sources change), so a request does not pay for a dozen middlewares rebuilding the same strings.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { AuthSettings } from '../auth/settings';

const NONCE_BYTES = 16;
/** Nonces are cut from a block of random bytes fetched at once: one call to the CSPRNG per 256 responses. */
const NONCE_BLOCK = NONCE_BYTES * 256;
let nonceBlock = Buffer.alloc(0);
let nonceAt = 0;

/** 16 random bytes, base64: never handed out twice. */
export function newNonce(): string {
  if (nonceAt + NONCE_BYTES > nonceBlock.length) {
    nonceBlock = randomBytes(NONCE_BLOCK);
    nonceAt = 0;
  }
  const nonce = nonceBlock.toString('base64', nonceAt, nonceAt + NONCE_BYTES);
  nonceAt += NONCE_BYTES;
  return nonce;
}

/** Features a news page never uses, switched off for the page and anything it embeds. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), browsing-topics=()';

const CSP = 'Content-Security-Policy';
/** Stands for the nonce while helmet builds the CSP once; valid in a directive (no ';' or ','). */
const NONCE_MARK = 'NONCEMARK0000000000000000';
const NONCE_SOURCE = `'nonce-${NONCE_MARK}'`;

export interface SecurityHeaders {
  /** Every security header of a response, the CSP carrying `nonce`. */
  apply(res: ServerResponse, nonce: string): void;
  /**
   * The same headers, in the same order, appended to `out` as name, value pairs (for `writeHead`), the CSP
   * allowing `scripts` (a stored page's hashes: sharedPolicy) instead of a nonce.
   */
  appendShared(out: string[], scripts: string): void;
  /** The CSP of a page stored for every reader: its scripts allowed by `scripts` (`'sha256-…'` each), no nonce. */
  sharedPolicy(scripts: string): string;
}

export interface SecurityOptions {
  /** Where images and media may come from besides this origin (the upstream's media host in dev). */
  mediaOrigins: readonly string[];
  /** Readers reach the sites over TLS (the terminator in front), so browsers are told to stay on it. */
  https: boolean;
  /** What the page may frame besides itself: WeChat's QR sign-in page, shown in the login dialog. */
  frameOrigins: readonly string[];
}

/** The options of this deployment: the sign-in dialog frames the QR page of the configured WeChat (or its stand-in). */
export function securityOptionsOf(mediaOrigins: readonly string[], protocol: 'http' | 'https', signIn: Pick<AuthSettings, 'qrconnectUrl'>): SecurityOptions {
  return { mediaOrigins, https: protocol === 'https', frameOrigins: [new URL(signIn.qrconnectUrl).origin] };
}

export function securityHeaders(options: SecurityOptions): SecurityHeaders {
  const set = helmetHeaders(options);
  const csp = set.find(([name]) => name === CSP)?.[1] ?? '';
  const [beforeSources, afterSources] = csp.split(NONCE_SOURCE);
  if (afterSources === undefined || beforeSources === undefined) throw new Error('the CSP has no nonce');
  const fixed = set.filter(([name]) => name !== CSP);
  const fixedFlat = fixed.flat();
  const sharedPolicy = (scripts: string) => beforeSources + scripts + afterSources;
  return {
    apply(res, nonce) {
      res.setHeader(CSP, `${beforeSources}'nonce-${nonce}'${afterSources}`);
      for (const [name, value] of fixed) res.setHeader(name, value);
    },
    appendShared(out, scripts) {
      out.push(CSP, sharedPolicy(scripts));
      for (const part of fixedFlat) out.push(part);
    },
    sharedPolicy,
  };
}

/** A fresh nonce in res.locals.nonce (the renderer puts it on every script) and the security headers with it. */
export function securityMiddleware(headers: SecurityHeaders): RequestHandler {
  return (_req, res, next) => {
    const nonce = newNonce();
    res.locals.nonce = nonce;
    headers.apply(res, nonce);
    next();
  };
}

/** What helmet (and the Permissions-Policy) set on a response, in order, with NONCE_MARK for the nonce. */
function helmetHeaders(options: SecurityOptions): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  let failure: unknown = null;
  helmet(helmetOptions(options))({} as IncomingMessage, recorder, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure) throw failure;
  headers.push(['Permissions-Policy', PERMISSIONS_POLICY]);
  return headers;
}

function helmetOptions({ mediaOrigins: extraOrigins, https, frameOrigins }: SecurityOptions): Parameters<typeof helmet>[0] {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The nonce's place: a nonce per response, or a stored page's script hashes (SecurityHeaders). 'self' is
        // for browsers without 'strict-dynamic' (CSP 2), which load the bundles by it; others ignore it.
        scriptSrc: [() => NONCE_SOURCE, "'strict-dynamic'", "'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', ...extraOrigins],
        mediaSrc: ["'self'", 'blob:', 'https:', ...extraOrigins],
        // hls.js fetches playlists and segments from the media hosts.
        connectSrc: ["'self'", ...extraOrigins],
        fontSrc: ["'self'", 'data:'],
        frameSrc: ["'self'", ...frameOrigins],
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
  };
}
