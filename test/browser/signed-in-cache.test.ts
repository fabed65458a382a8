/**
 * A signed-in reader in a real browser gets pages from the shared cache (X-Cache HIT) and still sees their own
 * menu from the first paint: with script, the head script has marked <html> before the body is parsed and the
 * menu shows while the app bundle is still held back (no flash of 订阅); hydration then matches without a
 * warning and React takes over the menu. Without script, the reader stylesheet shows the same menu. After
 * logout the same cached page shows 订阅 again.
 */
import type { BrowserContext, Page, Route } from 'playwright-core';
import { gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';
import { signInBrowserSuite, signInFromDialog } from '../support/sign-in-browser';

const NICKNAME = '缓存里的读者';

/** Records, from before any page script, whether <html> got its reader mark while the body did not exist yet. */
const WATCH_READER_MARK = `(() => {
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.attributeName === 'data-reader' && window.__readerMarkedBeforeBody === undefined) {
        window.__readerMarkedBeforeBody = document.body === null;
      }
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-reader'] });
})();`;

/** The nickname the not-yet-hydrated menu draws (CSS generated content), as the browser computed it. */
function drawnNickname(page: Page): Promise<string> {
  return page.locator('.reader-menu__name').evaluate((element) => getComputedStyle(element, '::after').content);
}

async function expectReaderMenuShown(page: Page): Promise<void> {
  expect(await page.locator('.reader-menu').isVisible()).toBe(true);
  expect(await page.locator('.top-bar__subscribe').isVisible()).toBe(false);
  expect(await drawnNickname(page)).toBe(`"${NICKNAME}"`);
}

describeWithBrowser()('signed-in readers from the shared cache, in a browser', () => {
  const suite = signInBrowserSuite();
  let signedIn: BrowserContext;
  /** The signed-in reader's page; its problems (console errors and warnings, hydration's included). */
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    const { portal, browser } = suite;
    ({ page, problems } = await watchedPage(browser));
    // A first render of a cold page on a busy machine can take longer than the suites' short default.
    page.setDefaultTimeout(20_000);
    signedIn = page.context();
    await gotoHydrated(page, `${portal.origin}/about`);
    await page.click('.top-bar__subscribe');
    await signInFromDialog(page, portal, NICKNAME, `${portal.origin}/about`);
  }, 90_000);
  afterAll(async () => signedIn?.close());

  /**
   * Anonymous requests first, until one is answered from the shared cache: a page is stored once its answer has
   * gone out, and not at all when a purge or a render's own reads leave it in doubt.
   */
  const warm = async (path: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const response = await fetch(`${suite.portal.origin}${path}`);
      await response.arrayBuffer();
      if (response.headers.get('x-cache') === 'HIT') return;
      if (Date.now() > deadline) throw new Error(`${path} was never answered from the shared cache`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('serves the cached page and shows the reader menu before the app runs, then hydrates without a warning', async () => {
    const { origin } = suite.portal;
    expect(await page.evaluate(() => document.cookie)).toContain('portal_reader=');
    const url = `${origin}/V1/2728`;
    await warm('/V1/2728');
    await page.addInitScript(WATCH_READER_MARK);
    // Hold the app's scripts back: what shows now is the server's HTML, the head script and CSS only.
    const held: Route[] = [];
    const appScript = (address: URL) => address.pathname.startsWith('/assets/') && address.pathname.endsWith('.js');
    let holding = true;
    await page.route(appScript, (route) => (holding ? void held.push(route) : route.continue()));
    try {
      const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
      expect(response?.headers()['x-cache']).toBe('HIT');
      expect(await response?.text()).not.toContain(NICKNAME);
      expect(await page.locator('html[data-hydrated]').count()).toBe(0);
      const markedBeforeBody = await page.evaluate(() => (window as unknown as { __readerMarkedBeforeBody?: boolean }).__readerMarkedBeforeBody);
      expect(markedBeforeBody).toBe(true);
      // DOMContentLoaded does not wait for stylesheets (painting does): on a loaded machine the CSS that hides
      // 订阅 for a reader can still be on its way, so the page is judged once its stylesheets are in.
      await page.waitForFunction(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet !== null));
      await expectReaderMenuShown(page);
    } finally {
      holding = false;
      for (const route of held) await route.continue();
      await page.unrouteAll();
    }
    await page.waitForSelector('html[data-hydrated="true"]');
    // React knows the reader now: its own menu, the like/collect state asked for after hydration.
    await page.locator('.user-menu .user-menu__trigger', { hasText: NICKNAME }).waitFor();
    expect(await page.locator('.top-bar__subscribe').count()).toBe(0);
    expect(await page.locator('.reader-menu').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);

  it('without JavaScript the cached page shows the reader menu from the reader stylesheet', async () => {
    const { portal, browser } = suite;
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1440, height: 900 } });
    try {
      await context.addCookies(await signedIn.cookies());
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      for (const path of ['/V1/2728', '/about', '/']) {
        await warm(path);
        const response = await page.goto(`${portal.origin}${path}`);
        expect([path, response?.headers()['x-cache']]).toEqual([path, 'HIT']);
        await expectReaderMenuShown(page);
        expect(await page.locator('html[data-reader]').count()).toBe(0);
      }
    } finally {
      await context.close();
    }
  }, 60_000);

  it('after logout the same cached page shows 订阅 and no reader menu', async () => {
    const { portal } = suite;
    await gotoHydrated(page, `${portal.origin}/about`);
    await page.locator('.user-menu .user-menu__trigger').focus();
    await page.locator('.user-menu button', { hasText: '退出登录' }).click();
    await page.waitForURL(`${portal.origin}/`);
    await warm('/V1/2728');
    const response = await page.goto(`${portal.origin}/V1/2728`, { waitUntil: 'domcontentloaded' });
    expect(response?.headers()['x-cache']).toBe('HIT');
    expect(await page.locator('.top-bar__subscribe').isVisible()).toBe(true);
    expect(await page.locator('.reader-menu').isVisible()).toBe(false);
    expect(await page.locator('html[data-reader]').count()).toBe(0);
    expect(await page.evaluate(() => document.cookie)).not.toContain('portal_reader=');
    expect(problems).toEqual([]);
  }, 60_000);
});
