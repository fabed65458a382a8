/**
 * Signed-in readers and the shared page cache (issue 14): a signed-in browser (session + reader cookies) gets
 * exactly the page an anonymous reader gets, from the same entry — byte for byte apart from the CSP nonce —
 * whether the hit is answered in front of Express or through it, on any page, site or query spelling; a page a
 * signed-in reader is first to ask for is stored as the anonymous page; no shared entry ever holds reader data;
 * the personal center stays rendered per reader, private. A session from before the reader cookie gets one
 * private render that sets it.
 */
import Redis from 'ioredis';
import request from 'supertest';
import { pageCodec } from '../../../server/cache/page-cache';
import { MAIN_DOMAIN, REGIONAL_SITES } from '../../../shared/sites';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import {
  cookieFrom,
  mainSitePage,
  mainSitePageWithCookies,
  setCookieLine,
  signInCookies,
  signInEnv,
  startSignInPortal,
  type SignInPortal,
} from '../../support/sign-in';

/**
 * The page as stored: a cached page as sent (the same bytes for every reader); a streamed one with its nonce
 * attributes taken out, as storing it does (server/cache/stored-page.ts).
 */
function asStored(res: request.Response): string {
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
  if (!nonce) return res.text;
  expect(res.text).toContain(` nonce="${nonce}"`);
  return res.text.split(` nonce="${nonce}"`).join('');
}

describeWithRedis()('pages for signed-in readers', () => {
  let portal: SignInPortal;
  let t: TestPortal;

  beforeAll(async () => {
    portal = await startSignInPortal();
    ({ t } = portal);
  });
  afterAll(async () => portal?.close());

  const anonymous = (path: string, host = MAIN_DOMAIN) => request(t.url).get(path).set('Host', host);
  const asReader = (path: string, cookie: string, host = MAIN_DOMAIN) => request(t.url).get(path).set('Host', host).set('Cookie', cookie);

  it.each([
    ['/', MAIN_DOMAIN],
    ['/about', MAIN_DOMAIN],
    ['/V1/2728', MAIN_DOMAIN],
    ['/V1/2728?utm_source=wechat', MAIN_DOMAIN],
    ['/detail/2728/33727', MAIN_DOMAIN],
    ['/', REGIONAL_SITES[2]!.domain],
  ])('a signed-in reader gets the cached %s (%s), byte-identical to the anonymous page', async (path, host) => {
    const reader = await signInCookies(t, '缓存读者');
    await anonymous(path, host);
    const anon = await anonymous(path, host);
    const signedIn = await asReader(path, reader.cookie, host);
    expect(anon.status).toBe(200);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers['x-cache']).toBe('HIT');
    expect(signedIn.headers['content-security-policy']).toBe(anon.headers['content-security-policy']);
    // The same shared headers (s-maxage counts down with the entry's age, so it is left out).
    const shared = (value: unknown) => String(value).replace(/s-maxage=\d+/, 's-maxage=N');
    expect(shared(signedIn.headers['cache-control'])).toBe(shared(anon.headers['cache-control']));
    expect(signedIn.headers['cache-control']).toMatch(/^public/);
    expect(signedIn.headers.etag).toBe(anon.headers.etag);
    expect(signedIn.headers['set-cookie']).toBeUndefined();
    expect(asStored(signedIn)).toBe(asStored(anon));
    expect(signedIn.text).not.toContain('缓存读者');
  });

  it('the same through the Express chain (no hit path in front of it)', async () => {
    const chained = await startTestPortal({ upstream: t.upstream, redisUrl: testRedisUrl(), env: signInEnv(t.upstream.url), pageHits: false });
    try {
      const reader = await signInCookies(chained, '链上读者');
      const get = (cookie?: string) => {
        const call = request(chained.url).get('/V2/2728').set('Host', MAIN_DOMAIN);
        return cookie ? call.set('Cookie', cookie) : call;
      };
      await get();
      const anon = await get();
      const signedIn = await get(reader.cookie);
      expect(signedIn.headers['x-cache']).toBe('HIT');
      expect(asStored(signedIn)).toBe(asStored(anon));
    } finally {
      await chained.close();
    }
  });

  it('a page a signed-in reader asks for first is rendered and stored as the anonymous page', async () => {
    const reader = await signInCookies(t, '先到的读者');
    const first = await asReader('/V2/2728', reader.cookie);
    expect(first.headers['x-cache']).toBe('MISS');
    // Never private to the reader: the render is the anonymous page (public, or no-store for shared caches while
    // its side blocks were still loading when the headers went out; see server/render/downstream-caching.ts).
    expect(first.headers['cache-control']).not.toMatch(/^private, max-age/);
    expect(first.text).not.toContain('先到的读者');
    const anon = await anonymous('/V2/2728');
    expect(anon.headers['x-cache']).toBe('HIT');
    expect(anon.headers['cache-control']).toMatch(/^public/);
    expect(asStored(anon)).toBe(asStored(first));
  });

  it('no shared entry holds reader data: every page and data entry, in L1 and Redis, read back in full', async () => {
    const names = ['条目读者甲', '条目读者乙'];
    const readers = await Promise.all(names.map((name) => signInCookies(t, name)));
    for (const path of ['/', '/about', '/V1/2728', '/detail/2728/33727', '/personalCenter', '/search/5paw6Ze7/1']) {
      for (const reader of readers) await asReader(path, reader.cookie);
    }
    const client = new Redis(testRedisUrl());
    try {
      const keys = (await client.keys(`${t.cachePrefix}:*`)).filter((key) => !key.includes(':session:') && !key.includes(':login:'));
      const pageKeys = keys.filter((key) => key.includes(':page:'));
      expect(pageKeys.length).toBeGreaterThan(3);
      const secrets = [...names, ...readers.map((reader) => reader.session), ...readers.map((reader) => reader.reader)];
      for (const key of keys) {
        if ((await client.type(key)) !== 'string') continue;
        const entry = await t.portal.store.get(key);
        if (!entry) continue;
        const text = key.includes(':page:') ? pageCodec.decode(entry.value).identity.toString('utf8') : entry.value.toString();
        for (const secret of secrets) expect([key, text.includes(secret)]).toEqual([key, false]);
        expect([key, /user-menu|"token"|"user":\{/.test(text)]).toEqual([key, false]);
      }
    } finally {
      client.disconnect();
    }
  });

  it('the personal center stays rendered per reader: private, never from the shared entry', async () => {
    const reader = await signInCookies(t, '个人中心读者');
    await anonymous('/personalCenter');
    for (const path of ['/personalCenter', '/personalCenter?tab=videos']) {
      const page = await asReader(path, reader.cookie);
      expect(page.headers['x-cache']).toBe('PASS');
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect(page.text).toContain('个人中心读者');
    }
    expect((await anonymous('/personalCenter')).text).not.toContain('个人中心读者');
  });

  it('a session from before the reader cookie gets one private render that sets it; its next pages are hits', async () => {
    const reader = await signInCookies(t, '老会话读者');
    await anonymous('/about');
    const first = await mainSitePage(t, '/about', reader.session);
    expect(first.headers['x-cache']).toBe('PASS');
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.text).toContain('老会话读者');
    expect(cookieFrom(first.headers['set-cookie'], 'portal_reader')).toBe(reader.reader);
    expect(setCookieLine(first.headers['set-cookie'], 'portal_reader')).not.toMatch(/HttpOnly/);
    const next = await mainSitePageWithCookies(t, '/about', `portal_session=${reader.session}; portal_reader=${reader.reader}`);
    expect(next.headers['x-cache']).toBe('HIT');
  });

  it('no token reaches the HTML of a page a signed-in reader gets', async () => {
    const reader = await signInCookies(t, '读者丁');
    for (const page of [
      await asReader('/about', reader.cookie),
      await mainSitePage(t, '/about', reader.session),
      await asReader('/personalCenter', reader.cookie),
    ]) {
      // Tokens are 48 hex characters in the reference API; none may appear, nor the session id itself.
      expect(page.text).not.toMatch(/[0-9a-f]{48}/);
      expect(page.text).not.toContain(reader.session);
      expect(page.text).not.toMatch(/"token"/);
    }
  });
});
