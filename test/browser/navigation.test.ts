/**
 * Client navigation a reader can trust, in a real browser against a real portal: a page that fails to render
 * leaves the error page inside the layout (and the server's log is told), a page whose loader throws is the same
 * error page from the server and after a click, the new page is announced and focused,
 * a phone following a link to an article goes to the mobile site as a typed URL would, and back returns to
 * where the reader was on a long page, and an open tab follows grey mode switched since its document was made.
 */
import type { Page } from 'playwright-core';
import { HOME_CATID } from '../../shared/constants';
import { browserPortalSuite, gotoHydrated, scrollAndSettle, watchedPage } from '../support/browser';
import { waitForLog } from '../support/portal';
import { eventually } from '../server/cache/redis-helpers';
import { describeWithBrowser } from '../support/requirements';
import { articleList, homeCategories } from '../support/upstream-data';
import { PAGE_LOADERS } from '../../server/pages/registry';
import { CLIENT_ERROR_ENDPOINT } from '../../shared/client-error';

const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** The portal's default MOBILE_DETAIL_URL (server/config.ts); the test answers it itself. */
const MOBILE_DETAIL_URL = 'https://m.qnnews.cn/detail';

describeWithBrowser()('client navigation', () => {
  // The flag watch on (test portals run without it): an open tab follows grey mode switched in the CMS.
  const suite = browserPortalSuite({ env: { FLAG_WATCH_S: '1' } });

  async function firstArticle(): Promise<{ catid: number; id: number; title: string }> {
    const [category] = await homeCategories(suite.portal.upstream.url, HOME_CATID);
    const list = await articleList(suite.portal.upstream.url, category!.catid);
    return list.lists[0]!;
  }

  async function homeWithLinkTo(page: Page, path: string): Promise<void> {
    await gotoHydrated(page, `${suite.portal.url}/`);
    await page.waitForSelector(`a[href="${path}"]`);
  }

  it('shows the error page inside the layout when the next page fails to render, and reports it', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    try {
      const article = await firstArticle();
      const path = `/detail/${article.catid}/${article.id}`;
      // The page's data as the server sends it, but without its article: the detail component cannot render it.
      await page.route(`**/_data/page?path=${encodeURIComponent(path)}`, async (route) => {
        const answer = (await (await route.fetch()).json()) as { page: { data: Record<string, unknown> } };
        answer.page.data.article = null;
        await route.fulfill({ json: answer });
      });
      await homeWithLinkTo(page, path);
      await page.click(`a[href="${path}"]`);
      await page.waitForSelector('main .status-page');
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await page.textContent('main .status-page .status-page__code')).toBe('500');
      expect(await page.locator('main .status-page a[href="/"]').count()).toBe(1);
      // The layout stayed: header and footer around the error page, not a blank screen.
      expect(await page.locator('header').first().isVisible()).toBe(true);
      expect(await page.locator('footer').first().isVisible()).toBe(true);
      const logged = await waitForLog(suite.portal, (line) => line.msg === 'client error' && (line.clientError as { path?: string }).path === path);
      expect((logged.clientError as { message: string }).message).toMatch(/null|undefined/);
      // React reports the caught error on the console itself; nothing else went wrong.
      expect(
        problems.filter(
          (line) =>
            !line.startsWith('error: TypeError') &&
            !line.includes('The above error occurred') &&
            !line.includes('React Router caught the following error during render'),
        ),
      ).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  // One loader, two sides (issue 36): the detail page's own loader, made to throw for one article, is what React
  // Router's static handler runs for the document and for the browser's loader (through /_data/page).
  it('a page whose loader throws is its route’s error page: from the server, after hydration, and after a click', async () => {
    const html = await (await fetch(`${suite.portal.url}/`)).text();
    // The last article home links to: one no other test here opens, so no page cache holds it.
    const path = [...html.matchAll(/href="(\/detail\/\d+\/\d+)"/g)].map((match) => match[1]!).at(-1)!;
    const id = path.split('/').at(-1)!;
    const original = PAGE_LOADERS.detail.loaders.detail;
    const bug = jest.spyOn(PAGE_LOADERS.detail.loaders, 'detail').mockImplementation(async (args) => {
      if (args.params.id === id) throw new TypeError('a bug in the detail loader');
      return original(args);
    });
    const { page, problems } = await watchedPage(suite.browser);
    const reports: string[] = [];
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
      if (new URL(request.url()).pathname === CLIENT_ERROR_ENDPOINT) reports.push(request.postData() ?? '');
    });
    const boundary = async () => ({
      code: await page.textContent('main .status-page .status-page__code'),
      header: await page.locator('header').first().isVisible(),
      footer: await page.locator('footer').first().isVisible(),
    });
    try {
      const served = await page.goto(`${suite.portal.url}${path}`, { waitUntil: 'domcontentloaded' });
      expect(served?.status()).toBe(500);
      await page.waitForSelector('html[data-hydrated="true"]');
      expect(await boundary()).toEqual({ code: '500', header: true, footer: true });
      // Hydrated as the server rendered it: no mismatch, and the error not reported again from the browser.
      expect(problems.filter((line) => !line.startsWith('HTTP 500') && !line.includes('status of 500'))).toEqual([]);
      expect(reports).toEqual([]);

      await homeWithLinkTo(page, path);
      await page.click(`a[href="${path}"]`);
      // The browser's loader gets the route's error page, a 500, from /_data/page, where the same loader threw.
      await page.waitForFunction(
        (target) => location.pathname === target && document.documentElement.dataset.hydrated === 'true' && !!document.querySelector('main .status-page'),
        path,
      );
      expect(await boundary()).toEqual({ code: '500', header: true, footer: true });
      // Twice the same loader: for the document, then for the browser's loader; no document was loaded again.
      expect(bug.mock.calls.filter(([args]) => args.params.id === id)).toHaveLength(2);
      expect(documents).toEqual([path, '/']);
    } finally {
      bug.mockRestore();
      await page.context().close();
    }
  });

  it('announces the new page in a polite live region and moves focus to its main heading', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    try {
      const article = await firstArticle();
      const path = `/detail/${article.catid}/${article.id}`;
      await homeWithLinkTo(page, path);
      const region = page.locator('[data-navigation-announcer]');
      expect(await region.getAttribute('aria-live')).toBe('polite');
      expect(await region.textContent()).toBe('');
      await page.click(`a[href="${path}"]`);
      await page.waitForSelector('h1.article__title');
      await page.waitForFunction(() => (document.querySelector('[data-navigation-announcer]')?.textContent ?? '') !== '');
      expect(await region.textContent()).toBe(await page.title());
      expect(await page.title()).toContain(article.title.slice(0, 4));
      expect(await page.evaluate(() => document.activeElement === document.querySelector('main h1'))).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(article.title.slice(0, 4));
      // Back to home, a page without an h1 in main: it is announced, and focus lands on main.
      const articleTitle = await page.title();
      await page.goBack();
      await page.waitForSelector('.home-grid');
      await page.waitForFunction(
        (previous) => document.querySelector('[data-navigation-announcer]')?.textContent === document.title && document.title !== previous,
        articleTitle,
      );
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it("sends a phone following a link to an article to the mobile site, as the article's own URL does", async () => {
    const { page } = await watchedPage(suite.browser, { userAgent: IPHONE_UA });
    try {
      const article = await firstArticle();
      const path = `/detail/${article.catid}/${article.id}`;
      const mobileLoads: string[] = [];
      await page.route(`${MOBILE_DETAIL_URL}**`, async (route) => {
        mobileLoads.push(route.request().url());
        await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>mobile</title><p>mobile site</p>' });
      });
      // The typed URL: the server's redirect.
      const typed = await fetch(`${suite.portal.url}${path}`, { headers: { 'user-agent': IPHONE_UA }, redirect: 'manual' });
      expect(typed.status).toBe(302);
      const expected = typed.headers.get('location')!;
      expect(expected).toBe(`${MOBILE_DETAIL_URL}?catid=${article.catid}&id=${article.id}`);
      // The link followed in the app: the same address, loaded as a document.
      await homeWithLinkTo(page, path);
      await page.click(`a[href="${path}"]`);
      await page.waitForURL(expected);
      expect(mobileLoads).toEqual([expected]);
      // The article's path did not stay in history: back returns to home.
      await page.goBack();
      await page.waitForURL(`${suite.portal.url}/`);
    } finally {
      await page.context().close();
    }
  });

  it('returns to where the reader was on a long page after back, also from a short page', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(height).toBeGreaterThan(3000);
      // The foot of home, and from there a footer link to a page far shorter than that position: the browser's own
      // restoration, made at popstate on the short page, could not reach it.
      await scrollAndSettle(page, height);
      const before = await page.evaluate(() => window.scrollY);
      expect(before).toBeGreaterThan(2000);
      const link = page.locator('footer a[href="/about"]').first();
      const box = (await link.boundingBox())!;
      expect(box.y).toBeGreaterThan(0);
      await page.mouse.click(box.x + Math.min(box.width / 2, 10), box.y + box.height / 2);
      await page.waitForFunction(() => location.pathname === '/about' && window.scrollY === 0);
      await page.waitForSelector('main h1');
      expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThan(before);
      await page.goBack();
      await page.waitForSelector('.home-grid');
      await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, before);
      // And forward: the short page again, at its top.
      await page.goForward();
      await page.waitForFunction(() => location.pathname === '/about' && window.scrollY === 0);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('turns an open tab grey at its next navigation once grey mode is switched on, and keeps it on back', async () => {
    const { page } = await watchedPage(suite.browser);
    const control = suite.portal.upstream.api.control;
    try {
      await homeWithLinkTo(page, '/about');
      expect(await page.locator('.app--grey').count()).toBe(0);
      control.setGreyMode('1');
      // The portal has found the flag (its watch reloads it every second here).
      const flag = async () =>
        ((await (await fetch(`${suite.portal.url}/_data/page?path=%2FsiteMap`)).json()) as { page: { greyMode?: string } }).page.greyMode;
      expect(await eventually(flag, (mode) => mode === 'layout', 30_000)).toBe('layout');
      await page.click('a[href="/about"]');
      await page.waitForURL('**/about');
      await page.waitForSelector('.app.app--grey');
      await page.goBack();
      await page.waitForURL(`${suite.portal.url}/`);
      expect(await page.locator('.app.app--grey').count()).toBe(1);
    } finally {
      control.setGreyMode('0');
      await page.close();
    }
  });
});
