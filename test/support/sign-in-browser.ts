/**
 * Signing a reader in inside Chromium: the sign-in portal of sign-in.ts and a browser for a describe block, and
 * the dialog's flow (the simulated WeChat QR page framed in it, its confirmation, the page back and hydrated).
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { startBrowserSignInPortal, type BrowserPortal } from './sign-in';

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
