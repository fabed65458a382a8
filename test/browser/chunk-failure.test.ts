/**
 * Issue 29, item 5: a chunk that fails to load (offline, a deploy replaced it) leaves no uncaught error. The
 * carousel's chunk is refused: the page's carousels keep the server's slides and nothing is thrown.
 */
import { browserPortalSuite, gotoHydrated, requestsSettled, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';

describeWithBrowser()('a chunk that fails to load', () => {
  const suite = browserPortalSuite();

  it('leaves the carousels as drawn and no uncaught "Failed to fetch dynamically imported module"', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 1296, height: 1200 } });
    try {
      await page.route('**/chunks/carousel-engine-*.js', (route) => route.abort('internetdisconnected'));
      const refused = page.waitForEvent('requestfailed', (request) => request.url().includes('/chunks/carousel-engine-'));
      await gotoHydrated(page, `${suite.portal.url}/`);
      await refused;
      await requestsSettled(page);
      // Let the import's rejection reach (or not) the unhandled-rejection handler: two frames after the failure.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const thrown = problems.filter((problem) => problem.startsWith('pageerror') || /dynamically imported module/.test(problem));
      expect(thrown).toEqual([]);
      expect(await page.locator('.ad-carousel .swiper-wrapper').first().isVisible()).toBe(true);
    } finally {
      await page.context().close();
    }
  });
});
