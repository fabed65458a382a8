/**
 * How pages load in a real browser: hover prefetch (skipped on Save-Data and 2g), the loading bar of a slow
 * navigation, and swiper's chunk fetched only by pages that show a carousel.
 */
import type { Page } from 'playwright-core';
import { describeWithBrowser } from '../support/requirements';
import { homeListEntry } from '../support/upstream-data';
import { browserPortalSuite, gotoHydrated, networkSettled, requestsSettled, watchedPage } from '../support/browser';

describeWithBrowser()('loading', () => {
  const suite = browserPortalSuite();
  let articlePath: string;

  beforeAll(async () => {
    const first = await homeListEntry(suite.portal.upstream.url);
    articlePath = `/detail/${first.catid}/${first.id}`;
  });

  function pageDataRequests(page: Page): string[] {
    const seen: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/_data/page')) seen.push(new URL(request.url()).searchParams.get('path') ?? '');
    });
    return seen;
  }

  it('prefetches a hovered article, and the click uses it', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    const requests = pageDataRequests(page);
    await gotoHydrated(page, `${suite.portal.url}/`);
    await page.hover(`.home-lead a[href="${articlePath}"]`);
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/_data/page')));
    expect(requests).toEqual([articlePath]);
    await page.click(`.home-lead a[href="${articlePath}"]`);
    await page.waitForSelector('h1.article__title');
    // One request for the article however it was reached (the pointer may now rest on, and prefetch, another link).
    expect(requests.filter((path) => path === articlePath)).toEqual([articlePath]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each([
    ['Save-Data', { effectiveType: '4g', saveData: true }],
    ['2g', { effectiveType: '2g', saveData: false }],
  ])('does not prefetch with %s', async (_name, hints) => {
    const { page } = await watchedPage(suite.browser);
    await page.addInitScript((value) => Object.defineProperty(navigator, 'connection', { value, configurable: true }), hints);
    const requests = pageDataRequests(page);
    await gotoHydrated(page, `${suite.portal.url}/`);
    await page.hover(`.home-lead a[href="${articlePath}"]`);
    await requestsSettled(page);
    expect(requests).toEqual([]);
    await page.click(`.home-lead a[href="${articlePath}"]`);
    await page.waitForSelector('h1.article__title');
    expect(requests[0]).toBe(articlePath);
    await page.context().close();
  });

  it('shows the loading bar while a slow navigation loads', async () => {
    const { page } = await watchedPage(suite.browser);
    await gotoHydrated(page, `${suite.portal.url}/`);
    // The page's data is held until the bar has been seen: slow for as long as the check needs, however fast the machine.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_data/page**', async (route) => {
      await released;
      await route.continue();
    });
    await page.click(`.home-lead a[href="${articlePath}"]`);
    await page.locator('.loading-bar').waitFor();
    release();
    await page.waitForSelector('h1.article__title');
    expect(await page.locator('.loading-bar').count()).toBe(0);
    await page.context().close();
  });

  it('loads swiper only on pages with a carousel, and runs it there', async () => {
    const { page } = await watchedPage(suite.browser);
    const chunks: string[] = [];
    page.on('request', (request) => {
      if (/carousel-engine-[^/]+\.js$/.test(request.url())) chunks.push(request.url());
    });
    const first = await homeListEntry(suite.portal.upstream.url);
    await gotoHydrated(page, `${suite.portal.url}/detailReading/${first.catid}/${first.id}`);
    await networkSettled(page);
    expect(chunks).toEqual([]);
    await gotoHydrated(page, `${suite.portal.url}/`);
    await page.locator('.swiper-initialized').first().waitFor();
    expect(chunks).toHaveLength(1);
    await page.context().close();
  });
});
