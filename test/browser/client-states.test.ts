/** Client states of docs/product.md §4 in a real browser: grey mode from the flag call, and the chunk-error reload guard. */
import { startTestPortal } from '../support/portal';
import { describeWithBrowser } from '../support/requirements';
import { homeListEntry } from '../support/upstream-data';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';

describeWithBrowser()('client states', () => {
  const suite = browserPortalSuite();
  let articlePath: string;

  beforeAll(async () => {
    const first = await homeListEntry(suite.portal.upstream.url);
    articlePath = `/detail/${first.catid}/${first.id}`;
  });
  afterAll(async () => {
    suite.portal?.upstream.api.control.setGreyMode('0');
  });

  /** A portal with empty caches on the shared upstream, so it reads the grey-mode flag as just set. */
  async function withGreyMode(mode: '0' | '1' | '2', use: (url: string) => Promise<void>): Promise<void> {
    suite.portal.upstream.api.control.setGreyMode(mode);
    const fresh = await startTestPortal({ upstream: suite.portal.upstream });
    try {
      await use(fresh.url);
    } finally {
      await fresh.close();
    }
  }

  const isGrey = (page: import('playwright-core').Page) =>
    page.$eval('.app', (el) => el.classList.contains('app--grey') && getComputedStyle(el).filter.includes('grayscale'));

  it("greys the whole site when the flag is '1'", async () => {
    await withGreyMode('1', async (url) => {
      const { page, problems } = await watchedPage(suite.browser);
      await gotoHydrated(page, `${url}/`);
      expect(await isGrey(page)).toBe(true);
      await page.click(`a[href="${articlePath}"]`);
      await page.waitForSelector('h1.article__title');
      expect(await isGrey(page)).toBe(true);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  it("greys only home when the flag is '2', and navigation clears it", async () => {
    await withGreyMode('2', async (url) => {
      const { page, problems } = await watchedPage(suite.browser);
      await gotoHydrated(page, `${url}/`);
      expect(await isGrey(page)).toBe(true);
      await page.click(`a[href="${articlePath}"]`);
      await page.waitForSelector('h1.article__title');
      expect(await isGrey(page)).toBe(false);
      await gotoHydrated(page, `${url}${articlePath}`);
      expect(await isGrey(page)).toBe(false);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  it('a reader arriving with parameters the page does not read (WeChat, utm) is not sent for the page again', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    const dataRequests: string[] = [];
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/_data/page')) dataRequests.push(request.url());
      if (request.resourceType() === 'document') documents.push(request.url());
    });
    for (const path of ['/license?from=singlemessage&isappinstalled=0', `${articlePath}?utm_source=wechat`]) {
      await gotoHydrated(page, `${suite.portal.url}${path}`);
      // Effects of the hydration commit have run once a frame has been painted after it.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    expect(dataRequests).toEqual([]);
    expect(documents).toHaveLength(2);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('page data that cannot be had (429 from the rate limit) reloads the page at most once, then shows the error page in the layout', async () => {
    // One client navigation a minute: the second and every later one get the rate limit's 429 (JSON, not a page).
    const limited = await startTestPortal({ upstream: suite.portal.upstream, env: { DATA_RATE_LIMIT_PER_MINUTE: '1' } });
    try {
      const { page } = await watchedPage(suite.browser);
      const documents: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
      });
      await gotoHydrated(page, `${limited.url}/license`);
      await page.click('footer a[href="/about"]');
      await page.waitForFunction(() => location.pathname === '/about' && document.title.length > 0);
      await page.click('footer a[href="/siteMap"]');
      // The failed navigation loads /siteMap the ordinary way, once.
      await page.waitForFunction(() => location.pathname === '/siteMap' && document.documentElement.dataset.hydrated === 'true');
      await page.click('a[href="/"]');
      // The error page inside the layout (header, footer, a way home), not a blank screen.
      await page.waitForSelector('main .status-page h1 >> text=页面加载失败，请稍后重试');
      expect(await page.locator('header').count()).toBeGreaterThan(0);
      expect(await page.locator('footer').count()).toBeGreaterThan(0);
      expect(await page.locator('main .status-page a[href="/"]').count()).toBe(1);
      expect(await page.title()).toBe('页面加载失败，请稍后重试');
      expect(documents).toEqual(['/license', '/siteMap']);
      expect(new URL(page.url()).pathname).toBe('/');
      await page.context().close();
    } finally {
      await limited.close();
    }
  });
});
