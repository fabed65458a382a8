/**
 * What the browser tells the server when a route's error boundary shows the error page (a render or loader
 * failure after a client navigation): where, and what was thrown, bounded. The server checks it against its
 * schema (server/render/client-errors.ts) and logs it; nothing else reads it. No zod here: the browser only
 * sends it.
 */
export const CLIENT_ERROR_ENDPOINT = '/_data/client-error';

/** Longer texts are cut: a report is for a log line, not for a payload. */
export const CLIENT_ERROR_TEXT_LIMIT = 2000;

export interface ClientErrorReport {
  /** The page's path when it failed (pathname + search). */
  path: string;
  /** The error's message, or the status of a route error response. */
  message: string;
  stack?: string;
}
