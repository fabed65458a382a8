/**
 * Sign-in in a real browser: 订阅 opens the dialog, its link goes through the portal to the simulated WeChat page,
 * '模拟扫码确认' comes back signed in on the same page (without code/state in the address), the header shows
 * the reader's menu, and 退出登录 signs out and goes home. The portal runs on localhost with a plain-http
 * callback origin, the way `npm start` runs locally.
 */
import type { Browser } from 'playwright-core';
import { startReferenceApi } from '../../scripts/reference-api/server';
import { gotoHydrated, launchBrowser, watchedPage } from '../support/browser';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../support/portal';
import { describeWithBrowser } from '../support/requirements';
import { signInEnv } from '../support/sign-in';
import { freePort } from '../support/free-port';

describeWithBrowser()('sign-in in a browser', () => {
  let upstream: ReferenceServer;
  let t: TestPortal;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    const port = await freePort();
    origin = `http://localhost:${port}`;
    t = await startTestPortal({
      upstream,
      port,
      env: { ...signInEnv(upstream.url), LOGIN_CALLBACK_ORIGIN: origin, PUBLIC_ORIGIN_PROTOCOL: 'http' },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await upstream?.close();
  });

  it('signs in through the simulated QR page, shows the reader menu, and logs out', async () => {
    const { page, problems } = await watchedPage(browser);
    await gotoHydrated(page, `${origin}/about`);
    await page.click('.top-bar__subscribe');
    await page.locator('dialog.login-modal').waitFor({ state: 'visible' });
    await page.click('.login-modal__wechat');
    await page.waitForURL(`${upstream.url}/__wechat/qrconnect**`);
    await page.fill('input[name="nickname"]', '浏览器读者');
    await page.click('text=模拟扫码确认');
    await page.waitForURL(`${origin}/about`);
    await page.waitForSelector('html[data-hydrated="true"]');
    expect(new URL(page.url()).search).toBe('');
    const menu = page.locator('.user-menu');
    expect(await menu.locator('.user-menu__trigger').textContent()).toContain('浏览器读者');
    expect(await page.locator('.top-bar__subscribe').count()).toBe(0);
    // The session cookie is httpOnly: page script cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('portal_session');

    await menu.locator('.user-menu__trigger').focus();
    await menu.locator('button', { hasText: '退出登录' }).click();
    // On failure, say where the browser ended up and why (a 403 here means the Origin check refused the form).
    await page.waitForURL(`${origin}/`).catch((error: unknown) => {
      throw new Error(`${String(error)}; at ${page.url()}; ${problems.join('; ')}`);
    });
    await page.waitForSelector('.top-bar__subscribe');
    expect(await page.locator('.user-menu').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
