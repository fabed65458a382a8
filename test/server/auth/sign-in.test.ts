/**
 * WeChat QR sign-in end to end against the reference API and a real Redis: the happy path and every way the
 * callback can be abused (mismatched, missing or replayed state, a failed exchange, open-redirect returns),
 * sessions that only count when the server knows them, the public reader cookie that goes with the session, and
 * CSRF-checked logout.
 */
import Redis from 'ioredis';
import request from 'supertest';
import { MSG_CSRF, MSG_EXCHANGE_FAILED, MSG_STATE_INVALID } from '../../../server/auth/routes';
import { decodeReaderCookie, encodeReaderCookie } from '../../../shared/reader-cookie';
import { MAIN_DOMAIN } from '../../../shared/sites';
import { type ReferenceServer, type TestPortal } from '../../support/portal';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import {
  callback,
  confirmScan,
  cookieFrom,
  mainSitePage,
  mainSitePageWithCookies,
  setCookieLine,
  signIn,
  startLogin,
  startSignInPortal,
  TEST_APP_ID,
  type SignInPortal,
} from '../../support/sign-in';

describeWithRedis()('WeChat sign-in', () => {
  let portal: SignInPortal;
  let upstream: ReferenceServer;
  let t: TestPortal;

  beforeAll(async () => {
    portal = await startSignInPortal();
    ({ t, upstream } = portal);
  });
  afterAll(async () => portal?.close());

  const page = (path: string, session?: string) => mainSitePage(t, path, session);

  it('sends the reader to WeChat with the app id, scope, main-site callback carrying the return address, and a 64-character state', async () => {
    const login = await startLogin(t, '/detail/2728/33727');
    expect(login.qrUrl.origin + login.qrUrl.pathname).toBe(`${upstream.url}/__wechat/qrconnect`);
    expect(login.qrUrl.searchParams.get('appid')).toBe(TEST_APP_ID);
    expect(login.qrUrl.searchParams.get('scope')).toBe('snsapi_login');
    expect(login.qrUrl.searchParams.get('response_type')).toBe('code');
    expect(login.qrUrl.searchParams.get('state')).toBe(login.state);
    expect(login.state).toMatch(/^[0-9a-f]{64}$/);
    expect(login.qrUrl.searchParams.get('redirect_uri')).toBe(
      `https://${MAIN_DOMAIN}/login/wechat/callback?return=${encodeURIComponent('/detail/2728/33727')}`,
    );
    const again = await startLogin(t, '/');
    expect(again.state).not.toBe(login.state);
  });

  it('the state cookie is httpOnly, SameSite=Lax, Secure and short-lived', async () => {
    const started = await request(t.url).get('/login/wechat').set('Host', MAIN_DOMAIN);
    const line = setCookieLine(started.headers['set-cookie'], 'portal_login_state');
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Secure/);
    expect(line).toMatch(/Max-Age=600/);
    expect(started.headers['cache-control']).toBe('private, no-store');
  });

  it('signs in: session cookie, back to the return address without code/state, the header shows the reader', async () => {
    const login = await startLogin(t, '/about?code=old&state=old');
    const back = await callback(t, await confirmScan(t, login, '张三'), login.state);
    expect(back.status).toBe(302);
    expect(back.headers.location).toBe('/about');
    const line = setCookieLine(back.headers['set-cookie'], 'portal_session');
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Secure/);
    expect(line).toMatch(/Domain=qnnews\.cn/);
    const session = cookieFrom(back.headers['set-cookie'], 'portal_session')!;
    // The reader cookie: the public profile only, readable by page script, living as long as the session.
    const readerLine = setCookieLine(back.headers['set-cookie'], 'portal_reader');
    expect(readerLine).not.toMatch(/HttpOnly/);
    expect(readerLine).toMatch(/SameSite=Lax/);
    expect(readerLine).toMatch(/Secure/);
    expect(readerLine).toMatch(/Domain=qnnews\.cn/);
    expect(/Max-Age=(\d+)/.exec(readerLine)?.[1]).toBe(/Max-Age=(\d+)/.exec(line)?.[1]);
    const reader = cookieFrom(back.headers['set-cookie'], 'portal_reader')!;
    expect(decodeReaderCookie(reader)).toEqual({ user_id: expect.any(Number), nickname: '张三', avatar: expect.stringMatching(/^(https?:\/\/\S+)?$/) });
    expect(Object.keys(JSON.parse(Buffer.from(reader, 'base64url').toString('utf8')) as object).sort()).toEqual(['avatar', 'nickname', 'user_id']);
    // The page is the one every reader gets: the menu is turned on in the browser, not written into the HTML.
    const first = await mainSitePageWithCookies(t, '/about', `portal_session=${session}; portal_reader=${reader}`);
    expect(first.headers['x-cache']).not.toBe('PASS');
    // Its first answer streamed (private: it runs by its own nonce); from then on the shared, stored page.
    const about = await mainSitePageWithCookies(t, '/about', `portal_session=${session}; portal_reader=${reader}`);
    expect(about.status).toBe(200);
    expect(about.headers['x-cache']).toBe('HIT');
    expect(about.headers['cache-control']).toMatch(/^public/);
    expect(about.text).not.toContain('张三');
    expect(about.text).toContain('reader-menu');
    expect(about.text).not.toMatch(/"token"/);
    // Without script the browser asks for the reader stylesheet: it is the session's, private.
    const style = await request(t.url).get('/_data/reader.css').set('Host', MAIN_DOMAIN).set('Cookie', `portal_session=${session}; portal_reader=${reader}`);
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(style.headers['cache-control']).toBe('private, no-store');
    expect(style.text).toContain('--reader-nickname:"张三"');
    // The session in Redis is keyed by a digest: the cookie value appears nowhere in Redis.
    const client = new Redis(testRedisUrl());
    try {
      const keys = await client.keys(`${t.cachePrefix}:session:*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join(' ')).not.toContain(session);
    } finally {
      client.disconnect();
    }
  });

  it('refuses a state that does not match the cookie, and leaves the reader signed out', async () => {
    const login = await startLogin(t, '/');
    const other = await startLogin(t, '/');
    const back = await callback(t, await confirmScan(t, login, '李四'), other.state);
    expect(back.status).toBe(400);
    expect(back.text).toContain(MSG_STATE_INVALID);
    expect(cookieFrom(back.headers['set-cookie'], 'portal_session')).toBeNull();
    expect(back.headers['cache-control']).toBe('private, no-store');
  });

  it('refuses a callback without the state cookie', async () => {
    const login = await startLogin(t, '/');
    const back = await callback(t, await confirmScan(t, login, '李四'), null);
    expect(back.status).toBe(400);
    expect(cookieFrom(back.headers['set-cookie'], 'portal_session')).toBeNull();
  });

  it('refuses a replayed callback, even with the cookie that came with it', async () => {
    const login = await startLogin(t, '/');
    const url = await confirmScan(t, login, '王五');
    expect((await callback(t, url, login.state)).status).toBe(302);
    const replay = await callback(t, url, login.state);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain(MSG_STATE_INVALID);
    expect(cookieFrom(replay.headers['set-cookie'], 'portal_session')).toBeNull();
  });

  it('a code the CMS refuses is a clear failure, signed out', async () => {
    const login = await startLogin(t, '/');
    const url = await confirmScan(t, login, '赵六');
    url.searchParams.set('code', 'forged');
    const back = await callback(t, url, login.state);
    expect(back.status).toBe(400);
    expect(back.text).toContain(MSG_EXCHANGE_FAILED);
    expect(cookieFrom(back.headers['set-cookie'], 'portal_session')).toBeNull();
  });

  it.each(['//evil.example', 'https:evil.example', '/\\evil.example', '%2F%2Fevil.example', 'https://evil.example/', '/%5Cevil.example'])(
    'never returns off-site: %s',
    async (target) => {
      const login = await startLogin(t, target);
      expect(login.qrUrl.searchParams.get('redirect_uri')).toBe(`https://${MAIN_DOMAIN}/login/wechat/callback?return=%2F`);
      const url = await confirmScan(t, login, '钱七');
      // Even a callback URL edited to carry another return address goes where the server recorded.
      url.searchParams.set('return', target);
      const back = await callback(t, url, login.state);
      expect(back.status).toBe(302);
      expect(back.headers.location).toBe('/');
    },
  );

  // The URL parser turns each of these into a path starting with '//': the address checked is the one sent.
  it.each(['/.//evil.example/phish', '/a/..//evil.example', '/%2e//evil.example', '/x/%2e%2e//evil.example', '/./\\evil.example', '/%2E%2e///evil.example'])(
    'never returns off-site through dot segments: %s',
    async (target) => {
      const login = await startLogin(t, target);
      const back = await callback(t, await confirmScan(t, login, '孙八'), login.state);
      expect(back.status).toBe(302);
      const location = String(back.headers.location);
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, `https://${MAIN_DOMAIN}`).host).toBe(MAIN_DOMAIN);
    },
  );

  it('the reader stylesheet of a browser with no live session is empty and clears a leftover reader cookie', async () => {
    const leftover = encodeReaderCookie({ user_id: 5, nickname: '残留读者', avatar: '' });
    for (const cookie of [`portal_reader=${leftover}`, `portal_session=${'b'.repeat(64)}; portal_reader=${leftover}`]) {
      const style = await request(t.url).get('/_data/reader.css').set('Host', MAIN_DOMAIN).set('Cookie', cookie);
      expect(style.status).toBe(200);
      expect(style.text).toBe('');
      expect(setCookieLine(style.headers['set-cookie'], 'portal_reader')).toMatch(/Expires=Thu, 01 Jan 1970/);
    }
    const none = await request(t.url).get('/_data/reader.css').set('Host', MAIN_DOMAIN);
    expect(none.text).toBe('');
    expect(none.headers['set-cookie']).toBeUndefined();
  });

  it('a cookie the server does not know is an anonymous reader', async () => {
    const forged = 'a'.repeat(64);
    await page('/about');
    const anonymous = await page('/about', forged);
    expect(anonymous.headers['x-cache']).toMatch(/HIT|STALE|MISS/);
    expect(anonymous.text).toContain('top-bar__subscribe');
    const junk = await page('/about', 'not-a-session');
    expect(junk.text).not.toContain('user-menu');
  });

  it('logout needs a same-origin POST, ends the session here and at the CMS, clears the cookie, goes home', async () => {
    const session = await signIn(t, '孙八');
    const csrf = await request(t.url).post('/logout').set('Host', MAIN_DOMAIN).set('Cookie', `portal_session=${session}`);
    expect(csrf.status).toBe(403);
    expect(csrf.text).toContain(MSG_CSRF);
    // Another site, and the portal's own host on plain http or another port (the portal is https here).
    for (const origin of ['https://evil.example', `http://${MAIN_DOMAIN}`, `https://${MAIN_DOMAIN}:8443`]) {
      const crossSite = await request(t.url).post('/logout').set('Host', MAIN_DOMAIN).set('Origin', origin).set('Cookie', `portal_session=${session}`);
      expect([origin, crossSite.status]).toEqual([origin, 403]);
    }
    expect((await page('/about', session)).text).toContain('孙八');

    const out = await request(t.url)
      .post('/logout')
      .set('Host', MAIN_DOMAIN)
      .set('Origin', `https://${MAIN_DOMAIN}`)
      .set('Cookie', `portal_session=${session}`);
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/');
    expect(setCookieLine(out.headers['set-cookie'], 'portal_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(setCookieLine(out.headers['set-cookie'], 'portal_reader')).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(setCookieLine(out.headers['set-cookie'], 'portal_reader')).toMatch(/Domain=qnnews\.cn/);
    const after = await page('/about', session);
    expect(after.text).not.toContain('孙八');
    expect(after.text).toContain('top-bar__subscribe');
  });
});
