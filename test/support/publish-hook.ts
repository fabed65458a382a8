/** The CMS's side of the publish hook (docs/publish-hook.md), for suites that call it: a body signed now. */
import request from 'supertest';
import { sign } from '../../server/cache/purge-request';

/** `t=<now>,v1=<HMAC>` for `body`, as the CMS sends it; `at` (unix seconds) to sign at another time. */
export function signatureOf(secret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${sign(secret, at, body)}`;
}

/** POST /_internal/purge of `body` (an object is sent as its JSON) to the portal at `url`, signed with `secret`. */
export function callHook(url: string, secret: string, body: string | object, signature?: string) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return request(url)
    .post('/_internal/purge')
    .set('content-type', 'application/json')
    .set('x-portal-signature', signature ?? signatureOf(secret, text))
    .send(text);
}
