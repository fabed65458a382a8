/**
 * The CMS account calls the server makes itself (docs/product.md §7): the code exchange at sign-in, and logout. (Profile
 * refreshes go through the proxy, which updates the session; see api-proxy/session-sync.ts.)
 * Answers are validated: a CMS answer without a usable user and token is a failed sign-in, not a half session.
 */
import { z } from 'zod';
import type { PublicUser } from '../../shared/app-state';
import type { UpstreamClient } from '../upstream/http-client';

export const userinfo = z.object({
  user_id: z.coerce.number().int().positive(),
  nickname: z.string().max(200).catch(''),
  avatar: z.string().max(2048).catch(''),
});
/**
 * The token goes back to the CMS in the `token` header of every signed-in call: only visible ASCII can stand in a
 * header value, so a token holding anything else (a space, a control character, non-ASCII, a lone surrogate made
 * U+FFFD) is a failed sign-in here rather than a session whose every call fails.
 */
const HEADER_SAFE_TOKEN = /^[\x21-\x7e]+$/;
const thirdAnswer = z.object({ token: z.string().min(1).max(512).regex(HEADER_SAFE_TOKEN), userinfo });

export type ExchangeResult = { kind: 'ok'; user: PublicUser; token: string } | { kind: 'failed'; reason: string };

export class AccountClient {
  constructor(private readonly upstream: UpstreamClient) {}

  async exchangeCode(code: string): Promise<ExchangeResult> {
    try {
      const result = await this.upstream.request({
        method: 'POST',
        path: '/api/user/third',
        body: { platform: 'wechat_webapp', code },
        call: 'user-third',
      });
      if (result.outcome !== 'ok') return { kind: 'failed', reason: `code ${result.envelope.code}: ${result.envelope.msg}` };
      const parsed = thirdAnswer.safeParse(result.envelope.data);
      if (!parsed.success) return { kind: 'failed', reason: 'unexpected answer shape' };
      return { kind: 'ok', user: parsed.data.userinfo, token: parsed.data.token };
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Best effort: the local session ends whatever the CMS answers. */
  async logout(token: string): Promise<void> {
    await this.upstream.request({ method: 'POST', path: '/api/user/logout', headers: { token }, call: 'user-logout' }).catch(() => undefined);
  }
}
