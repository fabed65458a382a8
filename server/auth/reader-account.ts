/**
 * The signed-in reader's account calls for one request (the personal center's lists), made with the session's
 * token on the server. When the CMS says the token is no longer signed in, the session ends here as it does in
 * the proxy: deleted from the store, and its cookie cleared while the response has not started.
 */
import type { Request, Response } from 'express';
import type { Logger } from '../platform/logger';
import { sessionOf } from './session';
import { AccountService, type AccountSession } from '../upstream/account-service';
import type { UpstreamClient } from '../upstream/http-client';
import { clearSessionCookie } from './cookies';
import type { Sessions } from './sessions';

export type AccountFor = (req: Request, res: Response) => AccountSession | null;

export function readerAccounts(upstream: UpstreamClient, sessions: Sessions, secureCookies: boolean, logger: Logger): AccountFor {
  return (req, res) => {
    const current = sessionOf(req);
    if (!current) return null;
    return new AccountService(upstream, current.session.token, async () => {
      await sessions.destroy(current.id).catch((error: unknown) => logger.warn({ err: error }, 'could not delete an ended session'));
      if (!res.headersSent) clearSessionCookie(req, res, secureCookies);
    });
  };
}
