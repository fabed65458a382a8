/**
 * Signs a reader in through the whole flow with plain HTTP: the portal's /login/wechat, the reference API's
 * simulated WeChat page and confirm step, and the portal's callback, each request addressed to the main site's
 * Host (the callback URL WeChat redirects to names the main site's domain).
 */
import Redis from 'ioredis';
import request from 'supertest';
import { startReferenceApi } from '../../scripts/reference-api/server';
import { MAIN_DOMAIN } from '../../shared/sites';
import { startTestPortal, type ReferenceServer, type TestPortal } from './portal';
import { testRedisUrl } from './requirements';
import { freePort } from '../../scripts/free-port';

export const TEST_APP_ID = 'wxtestapp';

export function signInEnv(upstreamUrl: string): Record<string, string> {
  return { WECHAT_APP_ID: TEST_APP_ID, WECHAT_QRCONNECT_URL: `${upstreamUrl}/__wechat/qrconnect` };
}

/** name=value of a Set-Cookie header for `name`, or null. */
export function cookieFrom(setCookie: string[] | string | undefined, name: string): string | null {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = list.find((entry) => entry.startsWith(`${name}=`));
  return line ? line.slice(name.length + 1).split(';')[0]! : null;
}

export function setCookieLine(setCookie: string[] | string | undefined, name: string): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.find((entry) => entry.startsWith(`${name}=`)) ?? '';
}

export interface StartedLogin {
  state: string;
  qrUrl: URL;
}

export async function startLogin(t: TestPortal, returnTo: string): Promise<StartedLogin> {
  const started = await request(t.url).get('/login/wechat').query({ return: returnTo }).set('Host', MAIN_DOMAIN);
  if (started.status !== 302) throw new Error(`/login/wechat answered ${started.status}`);
  const state = cookieFrom(started.headers['set-cookie'], 'portal_login_state');
  if (!state) throw new Error('no state cookie');
  return { state, qrUrl: new URL(started.headers.location as string) };
}

/** The simulated phone confirms; the callback URL (on the main site's domain) carrying code and state. */
export async function confirmScan(t: TestPortal, login: StartedLogin, nickname: string): Promise<URL> {
  const confirmed = await request(t.upstream.url)
    .get('/__wechat/confirm')
    .query({ redirect_uri: login.qrUrl.searchParams.get('redirect_uri') ?? '', state: login.state, nickname });
  return new URL(confirmed.headers.location as string);
}

export function callback(t: TestPortal, url: URL, stateCookie: string | null) {
  const call = request(t.url)
    .get(url.pathname + url.search)
    .set('Host', MAIN_DOMAIN);
  return stateCookie === null ? call : call.set('Cookie', `portal_login_state=${stateCookie}`);
}

export interface SignedInCookies {
  /** The httpOnly session cookie's value. */
  session: string;
  /** The public reader cookie's value (the profile page script reads). */
  reader: string;
  /** Both, as a browser sends them in its Cookie header. */
  cookie: string;
}

/** What a browser holds after signing in: the session and reader cookies the callback set. */
export async function signInCookies(t: TestPortal, nickname: string, returnTo = '/'): Promise<SignedInCookies> {
  const login = await startLogin(t, returnTo);
  const back = await callback(t, await confirmScan(t, login, nickname), login.state);
  const session = cookieFrom(back.headers['set-cookie'], 'portal_session');
  const reader = cookieFrom(back.headers['set-cookie'], 'portal_reader');
  if (back.status !== 302 || !session || !reader) throw new Error(`callback answered ${back.status}: ${back.text}`);
  return { session, reader, cookie: `portal_session=${session}; portal_reader=${reader}` };
}

/** A signed-in reader's session cookie value. */
export async function signIn(t: TestPortal, nickname: string, returnTo = '/'): Promise<string> {
  return (await signInCookies(t, nickname, returnTo)).session;
}

export interface SignInPortal {
  t: TestPortal;
  upstream: ReferenceServer;
  close(): Promise<void>;
}

/** A portal on Redis whose sign-in goes to its own reference API's simulated WeChat page. */
export async function startSignInPortal(): Promise<SignInPortal> {
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const t = await startTestPortal({ upstream, redisUrl: testRedisUrl(), env: signInEnv(upstream.url) });
  return {
    t,
    upstream,
    close: async () => {
      const client = new Redis(testRedisUrl());
      const keys = await client.keys(`${t.cachePrefix}:*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
      await t.close();
      await upstream.close();
    },
  };
}

/** GET a main-site page with exactly these cookies (a signed-in browser's Cookie header). */
export function mainSitePageWithCookies(t: TestPortal, path: string, cookie: string) {
  return request(t.url).get(path).set('Host', MAIN_DOMAIN).set('Cookie', cookie);
}

/** GET a main-site page, as the reader holding only the session cookie `session`, or anonymously. */
export function mainSitePage(t: TestPortal, path: string, session?: string) {
  const call = request(t.url).get(path).set('Host', MAIN_DOMAIN);
  return session ? call.set('Cookie', `portal_session=${session}`) : call;
}

export interface BrowserPortal {
  t: TestPortal;
  upstream: ReferenceServer;
  /** http://localhost:PORT, the origin the browser uses and WeChat returns to. */
  origin: string;
  close(): Promise<void>;
}

/** A portal on localhost with a plain-http callback origin, the way `npm start` runs locally. */
export async function startBrowserSignInPortal(env: Record<string, string> = {}): Promise<BrowserPortal> {
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const t = await startTestPortal({
    upstream,
    port,
    env: { ...signInEnv(upstream.url), LOGIN_CALLBACK_ORIGIN: origin, PUBLIC_ORIGIN_PROTOCOL: 'http', ...env },
  });
  return {
    t,
    upstream,
    origin,
    close: async () => {
      await t.close();
      await upstream.close();
    },
  };
}
