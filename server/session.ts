/**
 * Whether a request belongs to a signed-in reader. Such a request is never served from, nor stored in, the page
 * cache, and its response is private. (The session itself is set by the WeChat sign-in flow.)
 */
import type { Request } from 'express';

export const SESSION_COOKIE = 'portal_session';

export function isSignedIn(req: Request): boolean {
  const cookies = req.cookies as Record<string, unknown> | undefined;
  return typeof cookies?.[SESSION_COOKIE] === 'string' && cookies[SESSION_COOKIE] !== '';
}
