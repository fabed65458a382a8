/**
 * Whether a request belongs to a signed-in reader: one whose session cookie names a live server-side session
 * (attachSession looks it up once per request). Pages are the same for every reader, so such a request is served
 * from the shared page cache like any other; only per-reader pages (the personal center) are rendered for it,
 * privately. A stale or forged cookie is an anonymous reader.
 */
import type { Request } from 'express';
import { READER_COOKIE } from '../../shared/reader-cookie';
import type { Session } from './sessions';

export const SESSION_COOKIE = 'portal_session';

const sessions = new WeakMap<Request, { id: string; session: Session }>();

export function setSession(req: Request, id: string, session: Session): void {
  sessions.set(req, { id, session });
}

export function sessionOf(req: Request): { id: string; session: Session } | null {
  return sessions.get(req) ?? null;
}

/** Whether a cookie value looks like one of ours (64 hex characters); anything else is ignored unread. */
export function isSessionCookie(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

/** The raw cookie value, when it looks like one of ours. */
export function sessionCookieOf(req: Request): string | null {
  const cookies = req.cookies as Record<string, unknown> | undefined;
  const value = cookies?.[SESSION_COOKIE];
  return isSessionCookie(value) ? value : null;
}

/** Whether the browser sent the public reader cookie (which page script reads to show the reader's menu). */
export function hasReaderCookie(req: Request): boolean {
  const cookies = req.cookies as Record<string, unknown> | undefined;
  return typeof cookies?.[READER_COOKIE] === 'string';
}
