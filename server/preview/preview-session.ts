/**
 * The preview cookie: an expiry and a random id, signed with PREVIEW_SECRET. It carries no draft and no editor,
 * and without the secret it can be neither made nor stretched; it lasts at most PREVIEW_SESSION_SECONDS.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PREVIEW_SESSION_SECONDS } from './contract';

const VERSION = 'v1';

export interface PreviewSession {
  /** Unix seconds the preview ends. */
  expires: number;
}

function macOf(secret: string, expires: number, id: string): string {
  return createHmac('sha256', secret).update(`preview-session.${VERSION}.${expires}.${id}`).digest('base64url');
}

/** A new cookie value, valid PREVIEW_SESSION_SECONDS from now. */
export function newPreviewSession(secret: string, nowMs: number = Date.now()): { value: string; maxAgeSeconds: number } {
  const expires = Math.floor(nowMs / 1000) + PREVIEW_SESSION_SECONDS;
  const id = randomBytes(16).toString('base64url');
  return { value: `${VERSION}.${expires}.${id}.${macOf(secret, expires, id)}`, maxAgeSeconds: PREVIEW_SESSION_SECONDS };
}

/** The preview a cookie value opens, or null: absent, malformed, forged, expired or dated past the longest preview. */
export function previewSessionOf(value: string | undefined, secret: string, nowMs: number = Date.now()): PreviewSession | null {
  if (value === undefined) return null;
  const match = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const expires = Number(match[1]);
  const now = nowMs / 1000;
  if (expires <= now || expires > now + PREVIEW_SESSION_SECONDS + 60) return null;
  const expected = Buffer.from(macOf(secret, expires, match[2]!), 'base64url');
  return timingSafeEqual(Buffer.from(match[3]!, 'base64url'), expected) ? { expires } : null;
}
