/** Client states of SPEC §4 in a real browser: grey mode from the flag call, and the chunk-error reload guard. */
import type { Browser } from 'playwright-core';
import { HOME_CATID } from '../../shared/constants';
import { launchBrowser } from '../support/browser';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithBrowser } from '../support/requirements';
import { articleList, homeCategories } from '../support/upstream-data';
import { gotoHydrated, watchedPage } from '../support/browser';

describeWithBrowser()('client states', () => {
  let t: TestPortal;
  let browser: Browser;
  let articlePath: string;

  beforeAll(async () => {
    t = await startTestPortal();
    browser = await launchBrowser();
    const [category] = await homeCategories(t.upstream.url, HOME_CATID);
    const first = (await articleList(t.upstream.url, category!.catid)).lists[0]!;
    articlePath = `/detail/${first.catid}/${first.id}`;
  });
  afterAll(async () => {
    t?.upstream.api.control.setGreyMode('0');
    await browser?.close();
    await t?.close();
  });

  /** A portal with empty caches on the shared upstream, so it reads the grey-mode flag as just set. */
  async function withGreyMode(mode: '0' | '1' | '2', use: (url: string) => Promise<void>): Promise<void> {
    t.upstream.api.control.setGreyMode(mode);
    const fresh = await startTestPortal({ upstream: t.upstream });
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
      const { page, problems } = await watchedPage(browser);
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
      const { page, problems } = await watchedPage(browser);
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

  it('reloads once for a failed page chunk, and not again within 60 s', async () => {
    const { page } = await watchedPage(browser);
    await gotoHydrated(page, `${t.url}/`);
    // The detail page's chunk is gone (as after a deploy under an open tab).
    await page.route(/\/assets\/chunks\/DetailPage-[^/]+\.js$/, (route) => route.abort());
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
    });
    await page.click(`a[href="${articlePath}"]`);
    // One full load of the article, which shows the server-rendered page even though it cannot hydrate.
    await page.waitForSelector('h1.article__title');
    await page.waitForFunction(() => sessionStorage.getItem('portal.chunkReloadAt') !== null);
    await page.waitForTimeout(1500);
    expect(documents).toEqual([articlePath]);
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
    await page.context().close();
  });
});
