/**
 * Sign-in in a real browser: 订阅 opens the dialog showing WeChat's QR widget (the simulated QR page, framed,
 * reached through the portal with docs/product.md §7's parameters); '模拟扫码确认' takes the whole page back signed in on
 * the same address (without code/state), the header shows the reader's menu, and 退出登录 signs out and goes
 * home. The portal runs on localhost with a plain-http callback origin, the way `npm start` runs locally.
 */
import { gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';
import { TEST_APP_ID } from '../support/sign-in';
import { signInBrowserSuite, signInFromDialog } from '../support/sign-in-browser';

describeWithBrowser()('sign-in in a browser', () => {
  const suite = signInBrowserSuite();

  it('signs in through the QR widget in the dialog, shows the reader menu, and logs out', async () => {
    const { portal, browser } = suite;
    const { origin, upstream } = portal;
    const { page, problems } = await watchedPage(browser);
    await gotoHydrated(page, `${origin}/about`);
    await page.click('.top-bar__subscribe');
    await page.frameLocator('dialog.login-modal iframe.login-modal__qr').locator('input[name="nickname"]').waitFor();
    // The widget is WeChat's QR page with the app id, snsapi_login, the main site's login page carrying this
    // address, and a random 64-character state.
    const frame = page.frames().find((candidate) => candidate.url().startsWith(`${upstream.url}/__wechat/qrconnect`));
    expect(frame).toBeDefined();
    const qr = new URL(frame!.url());
    expect(qr.searchParams.get('appid')).toBe(TEST_APP_ID);
    expect(qr.searchParams.get('scope')).toBe('snsapi_login');
    expect(qr.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(qr.searchParams.get('redirect_uri')).toBe(`${origin}/login/wechat/callback?return=%2Fabout`);
    expect(qr.searchParams.get('self_redirect')).toBe('false');

    await signInFromDialog(page, portal, '浏览器读者', `${origin}/about`);
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
