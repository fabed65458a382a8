/**
 * The simulated JS-SDK sharing speaks WeChat's protocol: the signature is sha1 over
 * jsapi_ticket, noncestr, timestamp and url (without its hash) in that order, computed here independently;
 * the verification endpoint accepts exactly that and nothing else; the script offers the `wx` interface.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { createReferenceApi, type ReferenceApi } from '../../../scripts/reference-api/app';
import { JSSDK_VERIFY_PATH, JWEIXIN_SCRIPT_PATH } from '../../../scripts/reference-api/wechat-jssdk';
import type { RawJsSdkSignature } from '../../../server/upstream/wire';
import { NOW, SEED } from './fixtures';

let api: ReferenceApi;

beforeEach(() => {
  api = createReferenceApi({ seed: SEED, now: NOW, publicUrl: 'http://api.test:8080' });
});

async function sign(url: string): Promise<{ code: number; msg: string; data: RawJsSdkSignature | null }> {
  return (await request(api.handler).get('/api/wechat/get_jssdk_signature').query({ url })).body;
}

describe('get_jssdk_signature', () => {
  it('signs the url as WeChat documents it, ignoring the hash', async () => {
    const page = 'https://www.qnnews.cn/detail/2728/33727?from=timeline&isappinstalled=0';
    const answer = await sign(`${page}#comments`);
    expect(answer.code).toBe(0);
    const data = answer.data!;
    expect(data.appId).toBe(api.jsSdk.appId);
    expect(data.appId).toMatch(/^wx[0-9a-f]{16}$/);
    expect(data.timestamp).toBeGreaterThanOrEqual(NOW);
    expect(data.nonceStr).toMatch(/^[0-9a-f]{16}$/);
    const expected = createHash('sha1')
      .update(`jsapi_ticket=${api.jsSdk.ticket}&noncestr=${data.nonceStr}&timestamp=${data.timestamp}&url=${page}`)
      .digest('hex');
    expect(data.signature).toBe(expected);
  });

  it('the same seed gives the same app id and ticket; another seed another ticket', () => {
    const again = createReferenceApi({ seed: SEED, now: NOW });
    const other = createReferenceApi({ seed: SEED + 1, now: NOW });
    expect(again.jsSdk.ticket).toBe(api.jsSdk.ticket);
    expect(again.jsSdk.appId).toBe(api.jsSdk.appId);
    expect(other.jsSdk.ticket).not.toBe(api.jsSdk.ticket);
  });

  it('refuses a missing or non-http url with 40000', async () => {
    for (const url of ['', 'javascript:alert(1)', 'not a url', `https://x.cn/${'a'.repeat(2100)}`]) {
      const answer = await sign(url);
      expect(answer).toMatchObject({ code: 40000, data: null });
    }
  });
});

describe('verification and the simulated jweixin script', () => {
  const verify = (query: Record<string, string>) => request(api.handler).get(JSSDK_VERIFY_PATH).query(query);

  it('accepts a signature it issued for that url, and nothing changed', async () => {
    const url = 'http://localhost:3000/personalCenter';
    const data = (await sign(url)).data!;
    const fields = { appId: data.appId, timestamp: String(data.timestamp), nonceStr: data.nonceStr, signature: data.signature, url };
    const good = await verify(fields);
    expect(good.body).toEqual({ ok: true, errMsg: 'config:ok' });
    expect(good.headers['access-control-allow-origin']).toBe('*');
    for (const changed of [
      { url: `${url}?x=1` },
      { nonceStr: 'other' },
      { timestamp: String(data.timestamp + 1) },
      { appId: 'wx0' },
      { signature: '0'.repeat(40) },
    ]) {
      expect((await verify({ ...fields, ...changed })).body.ok).toBe(false);
    }
  });

  it('serves a script defining the wx share interface that verifies against this API', async () => {
    const script = await request(api.handler).get(JWEIXIN_SCRIPT_PATH);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    for (const name of ['config', 'ready', 'error', 'updateAppMessageShareData', 'updateTimelineShareData']) expect(script.text).toContain(`${name}:`);
    expect(script.text).toContain(`http://api.test:8080${JSSDK_VERIFY_PATH}`);
  });
});
