/**
 * The same-origin /api proxy against the reference API: the allow-list, the session's token going upstream (and
 * never back), CSRF on state-changing calls, body limits and validation, and docs/product.md §8 failure envelopes.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { FEEDBACK_MESSAGES } from '../../../shared/feedback';
import { MAIN_DOMAIN } from '../../../shared/sites';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { cookieFrom, setCookieLine, signIn, signInEnv } from '../../support/sign-in';
import { decodeReaderCookie, encodeReaderCookie } from '../../../shared/reader-cookie';

const ORIGIN = `https://${MAIN_DOMAIN}`;

describe('same-origin API proxy', () => {
  let upstream: ReferenceServer;
  let t: TestPortal;
  let session: string;

  beforeAll(async () => {
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    t = await startTestPortal({ upstream, env: { ...signInEnv(upstream.url), UPSTREAM_TIMEOUT_MS: '500' } });
    session = await signIn(t, '代理读者');
  });

  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  afterEach(() => upstream.api.control.reset());

  const post = (path: string, body: unknown, options: { origin?: string | null; session?: string | null } = {}) => {
    let call = request(t.url).post(path).set('Host', MAIN_DOMAIN);
    const origin = options.origin === undefined ? ORIGIN : options.origin;
    if (origin) call = call.set('Origin', origin);
    const cookie = options.session === undefined ? session : options.session;
    if (cookie) call = call.set('Cookie', `portal_session=${cookie}`);
    return call.send(body as object);
  };

  it.each([
    ['GET', '/api/user/third'],
    ['POST', '/api/user/third'],
    ['POST', '/api/user/logout'],
    ['GET', '/api/oss/sts'],
    ['GET', '/api/not/listed'],
    ['GET', '/api/thumbsup/get_num/'],
    ['GET', '/api/thumbsup%2fget_num'],
    ['GET', '/api/../mobile/index/category_index'],
  ])('answers 404 JSON for %s %s', async (method, path) => {
    const response = await request(t.url)[method.toLowerCase() as 'get' | 'post' | 'delete'](path).set('Host', MAIN_DOMAIN).set('Origin', ORIGIN);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ code: 404, msg: 'Not Found', data: null });
  });

  // A proxied path asked with a method it is not proxied for: 405 naming the ones it is.
  it.each([
    ['GET', '/api/thumbsup/toggle', 'POST'],
    ['POST', '/api/thumbsup/get_num', 'GET, HEAD'],
    ['DELETE', '/api/thumbsup/toggle', 'POST'],
  ])('answers 405 JSON with Allow for %s %s', async (method, path, allow) => {
    const response = await request(t.url)[method.toLowerCase() as 'get' | 'post' | 'delete'](path).set('Host', MAIN_DOMAIN).set('Origin', ORIGIN);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ code: 405, msg: 'Method Not Allowed', data: null });
  });

  it('forwards an allowed GET with its query and answers the envelope, never cached', async () => {
    const response = await request(t.url).get('/api/thumbsup/get_num?catid=7&article_id=42').set('Host', MAIN_DOMAIN);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: 0, msg: 'success', data: { num: 0 } });
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('sends the session token upstream as the `token` header; the answer never contains it', async () => {
    const liked = await post('/api/thumbsup/toggle', { catid: 7, article_id: 42 });
    expect(liked.body).toEqual({ code: 0, msg: 'success', data: { status: 1 } });
    expect((await request(t.url).get('/api/thumbsup/get_num?catid=7&article_id=42')).body.data).toEqual({ num: 1 });
    const profile = await post('/api/user/profile', {});
    expect(profile.body.data.userinfo.nickname).toBe('代理读者');
    expect(JSON.stringify(profile.body)).not.toMatch(/token/);
    const exist = await post('/api/thumbsup/batch_exist', { catid: 7, list: [42, 43] });
    expect(exist.body.data).toEqual({ '42': 1, '43': 0 });
  });

  it('an anonymous reader gets the CMS answer asking to sign in', async () => {
    const response = await post('/api/collection/toggle', { catid: 7, article_id: 42 }, { session: null });
    expect(response.body).toEqual({ code: 40101, msg: '请先登录', data: null });
  });

  it('refuses state-changing calls from another origin or with no origin at all', async () => {
    const otherOrigins = [
      'https://evil.example',
      'null',
      `http://${MAIN_DOMAIN}`,
      `HTTP://${MAIN_DOMAIN.toUpperCase()}`,
      `http://${MAIN_DOMAIN}:443`,
      `http://${MAIN_DOMAIN}:8080`,
      `https://${MAIN_DOMAIN}:8443`,
      `https://${MAIN_DOMAIN}.evil.example`,
      `ftp://${MAIN_DOMAIN}`,
    ];
    for (const origin of [null, ...otherOrigins]) {
      const response = await post('/api/thumbsup/toggle', { catid: 7, article_id: 42 }, { origin });
      expect([origin, response.status]).toEqual([origin, 403]);
    }
    for (const referer of otherOrigins.map((origin) => `${origin}/detail/7/42`)) {
      const response = await request(t.url)
        .post('/api/thumbsup/toggle')
        .set('Host', MAIN_DOMAIN)
        .set('Referer', referer)
        .set('Cookie', `portal_session=${session}`)
        .send({ catid: 7, article_id: 42 });
      expect([referer, response.status]).toEqual([referer, 403]);
    }
    const referer = await request(t.url)
      .post('/api/thumbsup/toggle')
      .set('Host', MAIN_DOMAIN)
      .set('Referer', `${ORIGIN}/detail/7/42`)
      .set('Cookie', `portal_session=${session}`)
      .send({ catid: 7, article_id: 43 });
    expect(referer.body.code).toBe(0);
    expect((await request(t.url).get('/api/thumbsup/get_num?catid=7&article_id=43')).body.data).toEqual({ num: 1 });
  });

  it("accepts the portal's own origins in any spelling the URL parser makes equal, and the origin a local run was addressed to", async () => {
    const local = new URL(t.url);
    const sameOrigins: Array<[host: string, origin: string]> = [
      [MAIN_DOMAIN, `HTTPS://${MAIN_DOMAIN.toUpperCase()}`],
      [MAIN_DOMAIN, `https://${MAIN_DOMAIN}:443`],
      [MAIN_DOMAIN, 'https://bj.qnnews.cn'],
      [local.host, `http://${local.host}`],
    ];
    for (const [host, origin] of sameOrigins) {
      const response = await post('/api/thumbsup/batch_exist', { catid: 7, list: [42] }, { origin }).set('Host', host);
      expect([origin, response.status]).toEqual([origin, 200]);
    }
    // The addressed origin is compared whole: this run is plain http on one port.
    const otherPort = Number(local.port) === 65535 ? 65534 : Number(local.port) + 1;
    for (const origin of [`https://${local.host}`, `http://${local.hostname}:${otherPort}`, `http://localhost:${local.port}`]) {
      const response = await post('/api/thumbsup/batch_exist', { catid: 7, list: [42] }, { origin }).set('Host', local.host);
      expect([origin, response.status]).toEqual([origin, 403]);
    }
  });

  it('limits and validates bodies', async () => {
    const large = await post('/api/common/feedback', { content: 'x'.repeat(20 * 1024) });
    expect(large.status).toBe(413);
    const nested = await post('/api/common/feedback', { content: { deep: true } });
    expect(nested.status).toBe(400);
    const array = await post('/api/common/feedback', [1, 2]);
    expect(array.status).toBe(400);
    const broken = await request(t.url)
      .post('/api/common/feedback')
      .set('Host', MAIN_DOMAIN)
      .set('Origin', ORIGIN)
      .set('Content-Type', 'application/json')
      .send('{"content":');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ code: 40000, msg: '参数错误', data: null });
  });

  it('maps an upstream without an answer to {code:500, msg:失败} and an HTTP error to its body', async () => {
    upstream.api.control.setFailures([{ path: '/api/live/list', mode: 'hang' }]);
    const hung = await request(t.url).get('/api/live/list?show_type=1').set('Host', MAIN_DOMAIN);
    expect(hung.status).toBe(502);
    expect(hung.body).toEqual({ code: 500, msg: '失败', data: null });
    upstream.api.control.setFailures([{ path: '/api/live/list', mode: 'http500' }]);
    const failed = await request(t.url).get('/api/live/list?show_type=1').set('Host', MAIN_DOMAIN);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ code: 500, msg: 'Internal Server Error', data: null });
  });

  it('a profile answer refreshes the name the pages show', async () => {
    const reader = await signIn(t, '旧名字');
    const before = await post('/api/user/profile', {}, { session: reader });
    const userId = before.body.data.userinfo.user_id as number;
    expect(upstream.api.accounts.rename(userId, '新名字')).toBe(true);
    const after = await post('/api/user/profile', {}, { session: reader });
    expect(after.body.data.userinfo.nickname).toBe('新名字');
    const page = await request(t.url).get('/about').set('Host', MAIN_DOMAIN).set('Cookie', `portal_session=${reader}`);
    expect(page.text).toContain('新名字');
    expect(page.text).not.toContain('旧名字');
    // The reader cookie (what cached pages show the menu from) is refreshed with it, for the session's lifetime.
    expect(decodeReaderCookie(cookieFrom(after.headers['set-cookie'], 'portal_reader') ?? '')?.nickname).toBe('新名字');
    expect(setCookieLine(after.headers['set-cookie'], 'portal_reader')).toMatch(/Max-Age=\d+/);
  });

  it('a reader cookie left without a live session is cleared by the next API call', async () => {
    const leftover = encodeReaderCookie({ user_id: 9, nickname: '残留读者', avatar: '' });
    for (const cookie of [`portal_reader=${leftover}`, `portal_session=${'c'.repeat(64)}; portal_reader=${leftover}`]) {
      const response = await request(t.url).get('/api/live/list?show_type=1').set('Host', MAIN_DOMAIN).set('Cookie', cookie);
      expect(setCookieLine(response.headers['set-cookie'], 'portal_reader')).toMatch(/Expires=Thu, 01 Jan 1970/);
    }
    const plain = await request(t.url).get('/api/live/list?show_type=1').set('Host', MAIN_DOMAIN);
    expect(plain.headers['set-cookie']).toBeUndefined();
  });

  it('when the CMS no longer knows the token, the session ends and the cookie is cleared', async () => {
    const reader = await signIn(t, '过期读者');
    upstream.api.accounts.reset();
    const response = await post('/api/thumbsup/toggle', { catid: 7, article_id: 42 }, { session: reader });
    expect(response.body.code).toBe(40101);
    expect(String(response.headers['set-cookie'])).toMatch(/portal_session=;/);
    expect(setCookieLine(response.headers['set-cookie'], 'portal_reader')).toMatch(/Expires=Thu, 01 Jan 1970/);
    const page = await request(t.url).get('/about').set('Host', MAIN_DOMAIN).set('Cookie', `portal_session=${reader}`);
    expect(page.text).not.toContain('过期读者');
    expect(page.text).toContain('top-bar__subscribe');
    session = await signIn(t, '代理读者');
  });

  it('checks feedback with the form rules before the CMS: 400 with the reason, no upstream call', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, FEEDBACK_MESSAGES.contentMissing],
      [{ content: '   ' }, FEEDBACK_MESSAGES.contentMissing],
      [{ content: '太短了' }, FEEDBACK_MESSAGES.contentLength],
      [{ content: '好'.repeat(501) }, FEEDBACK_MESSAGES.contentLength],
      [{ content: 123456 }, FEEDBACK_MESSAGES.notText],
      [{ content: '内容足够长的反馈', contact: 'c'.repeat(101) }, FEEDBACK_MESSAGES.contactLength],
      [{ content: '内容里有控制字符\u0007呢' }, FEEDBACK_MESSAGES.notText],
    ];
    for (const [body, message] of cases) {
      const response = await post('/api/common/feedback', body);
      expect([JSON.stringify(body).slice(0, 40), response.status, response.body]).toEqual([
        JSON.stringify(body).slice(0, 40),
        400,
        { code: 40000, msg: message, data: null },
      ]);
    }
    expect(upstream.api.control.stats().byPath['POST /api/common/feedback?']).toBeUndefined();
    const accepted = await post('/api/common/feedback', { content: '  希望增加更多校园新闻。  ', contact: '' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    expect(upstream.api.control.stats().byPath['POST /api/common/feedback?']).toBe(1);
    const anonymous = await post('/api/common/feedback', { content: '没有登录也想反馈' }, { session: null });
    expect(anonymous.body.code).toBe(40101);
  });

  it("passes the JS-SDK signature call for any reader; the signature is WeChat's sha1 of the page url", async () => {
    const url = 'https://www.qnnews.cn/detail/2728/33727?from=singlemessage';
    const response = await request(t.url).get('/api/wechat/get_jssdk_signature').query({ url }).set('Host', MAIN_DOMAIN);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const { appId, timestamp, nonceStr, signature } = response.body.data as { appId: string; timestamp: number; nonceStr: string; signature: string };
    expect(appId).toBe(upstream.api.jsSdk.appId);
    const expected = createHash('sha1')
      .update(`jsapi_ticket=${upstream.api.jsSdk.ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url}`)
      .digest('hex');
    expect(signature).toBe(expected);
    const bad = await request(t.url).get('/api/wechat/get_jssdk_signature').query({ url: 'javascript:alert(1)' }).set('Host', MAIN_DOMAIN);
    expect(bad.body).toMatchObject({ code: 40000, data: null });
  });
});
