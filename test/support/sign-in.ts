/**
 * Signs a reader in through the whole flow with plain HTTP: the portal's /login/wechat, the reference API's
 * simulated WeChat page and confirm step, and the portal's callback, each request addressed to the main site's
 * Host (the callback URL WeChat redirects to names the main site's domain).
 */
import Redis from 'ioredis';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { startReferenceApi } from '../../scripts/reference-api/server';
import { MAIN_DOMAIN } from '../../shared/sites';
import { startTestPortal, type ReferenceServer, type TestPortal } from './portal';
import { testRedisUrl } from './requirements';
import { launchBrowser } from './browser';
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

export interface SignInBrowser {
  portal: BrowserPortal;
  browser: Browser;
}

/** For a describe block: a sign-in portal and a browser, started before its tests and stopped after them. */
export function signInBrowserSuite(): SignInBrowser {
  const suite = {} as SignInBrowser;
  beforeAll(async () => {
    suite.portal = await startBrowserSignInPortal();
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.portal?.close();
  });
  return suite;
}

/**
 * In the browser, with the sign-in dialog opening: the simulated WeChat QR page framed in it → 模拟扫码确认 (the
 * phone's confirmation), the whole page back at `returnUrl` (where the dialog was opened), hydrated.
 */
export async function signInFromDialog(page: Page, portal: BrowserPortal, nickname: string, returnUrl: string): Promise<void> {
  await page.locator('dialog.login-modal').waitFor({ state: 'visible' });
  const qr = page.frameLocator('dialog.login-modal iframe.login-modal__qr');
  await qr.locator('input[name="nickname"]').fill(nickname);
  // The return URL is usually the page the dialog opened on, so waiting for it alone can end before the sign-in
  // has navigated at all: the page that opened the dialog is marked, and only a new, hydrated page will do.
  await page.evaluate(() => document.documentElement.setAttribute('data-before-sign-in', 'true'));
  // Enter submits the confirm form (the phone's 模拟扫码确认): a real key press, the user activation Chromium
  // wants before a framed page may navigate the top page.
  await qr.locator('input[name="nickname"]').press('Enter');
  await page.waitForSelector('html[data-hydrated="true"]:not([data-before-sign-in])').catch(async (error: unknown) => {
    throw new Error(`no new hydrated page after the sign-in's confirmation: ${await whereSignInStopped(page)}`, { cause: error });
  });
  await page.waitForURL(returnUrl);
  const cookies = await page.context().cookies(returnUrl);
  if (!cookies.some((cookie) => cookie.name === 'portal_session')) throw new Error(`no portal_session cookie for ${returnUrl} after sign-in`);
}

/** Where the page and its frames are, and the root's attributes: what a sign-in that never came back left. */
async function whereSignInStopped(page: Page): Promise<string> {
  const root = await page
    .evaluate(() => [...document.documentElement.attributes].map((attribute) => `${attribute.name}=${attribute.value}`).join(' '))
    .catch((error: unknown) => `unreadable (${String(error)})`);
  return JSON.stringify({ url: page.url(), root, frames: page.frames().map((frame) => frame.url()) });
}

/** In the browser: the top bar's 订阅, then the dialog's sign-in, back on the same page. */
/** 订阅: the top bar's from 768px up; on a phone the 菜单 panel's, the top bar hidden (issue 38, item 2). */
async function clickSubscribe(page: Page): Promise<void> {
  const topBar = page.locator('.top-bar__subscribe');
  if (await topBar.isVisible()) return topBar.click();
  await page.locator('button.menu-toggle').click();
  await page.locator('.phone-services__subscribe').click();
}

export async function signInInBrowser(page: Page, portal: BrowserPortal, nickname: string): Promise<void> {
  const returnUrl = page.url();
  await clickSubscribe(page);
  await signInFromDialog(page, portal, nickname, returnUrl);
}
