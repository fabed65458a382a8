/**
 * Home, detail and reading pages as a reader sees them: axe-core finds no serious or critical accessibility
 * violation, no console error or hydration warning shows, and screenshots of each page by day and by night are
 * written to test-results/screenshots/ for people to look at (with e-paper, video and live: home-day.png,
 * live-night.png, …; home with every banner slot's picture loaded).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { THEME_KEY } from '../../shared/preferences';
import { describeWithBrowser } from '../support/requirements';
import { homeListEntry } from '../support/upstream-data';
import { browserPortalSuite, gotoHydrated, networkSettled, watchedPage } from '../support/browser';
import { seriousAxeViolations } from '../support/axe';
import { firstLink, pagesOfEveryKind } from '../support/page-kinds';

export const SCREENSHOT_DIR = path.resolve(__dirname, '../../test-results/screenshots');

/** Every page kind the route table serves, and the not-found page (scanned by night below). */
async function everyPageKind(base: string): Promise<string[]> {
  return [...(await pagesOfEveryKind(base)), '/no-such-page'];
}

/**
 * Scrolls every home banner slot (8–16) into view and waits for its first picture, so the full-page screenshot
 * shows the ads between the rows instead of lazy pictures not yet loaded.
 */
async function showAllBanners(page: Page): Promise<void> {
  const banners = page.locator('.home-grid__ad');
  const count = await banners.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    const banner = banners.nth(index);
    await banner.scrollIntoViewIfNeeded();
    await banner
      .locator('.ad-slide img, .ad-slide video')
      .first()
      .evaluate(
        (media) =>
          new Promise<void>((resolve) => {
            const ready = () => (media instanceof HTMLImageElement ? media.complete && media.naturalWidth > 0 : true);
            if (ready()) return resolve();
            media.addEventListener('load', () => resolve(), { once: true });
          }),
      );
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

describeWithBrowser()('look and accessibility', () => {
  const suite = browserPortalSuite();
  const pages: Array<{ name: string; path: string }> = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const first = await homeListEntry(suite.portal.upstream.url, 1);
    pages.push(
      { name: 'home', path: '/' },
      { name: 'detail', path: `/detail/${first.catid}/${first.id}` },
      { name: 'reading', path: `/detailReading/${first.catid}/${first.id}` },
    );
  });

  it('hydrates the other layouts without console problems: small footer, site map, info and list pages', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    await gotoHydrated(page, `${suite.portal.url}/contribute`);
    expect(await page.locator('.site-footer--small').count()).toBe(1);
    expect(await page.locator('.site-footer__matrix').count()).toBe(0);
    await gotoHydrated(page, `${suite.portal.url}/siteMap`);
    expect(await page.locator('.site-footer__company').count()).toBe(1);
    const menuLinks = await page.$$eval('.menu__level2 a[href^="/"]', (links) => links.slice(0, 2).map((link) => link.getAttribute('href')!));
    for (const path of ['/about', '/license', '/specialColumn', ...menuLinks]) {
      await gotoHydrated(page, `${suite.portal.url}${path}`);
      expect(await page.locator('footer.site-footer .site-footer__legal').count()).toBe(1);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('every page kind by night: no serious or critical axe violation (contrast of quotes, captions, panels)', async () => {
    const { page, problems } = await watchedPage(suite.browser, { bypassCSP: true });
    page.setDefaultTimeout(20_000);
    await page.addInitScript((key) => localStorage.setItem(key, 'dark'), THEME_KEY);
    const paths = await everyPageKind(suite.portal.url);
    const report: string[] = [];
    for (const target of paths) {
      await gotoHydrated(page, `${suite.portal.url}${target}`);
      expect(await page.evaluate(() => document.documentElement.classList.contains('theme-dark'))).toBe(true);
      report.push(...(await seriousAxeViolations(page)).map((line) => `${target}: ${line}`));
    }
    expect(report).toEqual([]);
    // The not-found page is one of the kinds: its own 404 is expected, nothing else may fail.
    expect(problems.filter((line) => !/\/no-such-page|status of 404/.test(line))).toEqual([]);
    await page.context().close();
  }, 600_000);

  for (const theme of ['day', 'night'] as const) {
    it(`e-paper, video and live pages by ${theme}: the painted pictures load at their size, a screenshot`, async () => {
      const { page, problems } = await watchedPage(suite.browser);
      if (theme === 'night') await page.addInitScript((key) => localStorage.setItem(key, 'dark'), THEME_KEY);
      const targets = [
        { name: 'epaper', path: '/readNewspapers/2761' },
        { name: 'video', path: await firstLink(suite.portal.url, '/shike/2839', /^\/video\/\d+\/\d+$/) },
        // A live as home lists it (直播): on air, else the next to start.
        { name: 'live', path: await firstLink(suite.portal.url, '/', /^\/liveStreamDetail\/\d+$/) },
      ];
      for (const target of targets) {
        await gotoHydrated(page, `${suite.portal.url}${target.path}`);
        await networkSettled(page);
        // Pictures loaded so far decoded: a broken image is complete with naturalWidth 0. Lazy ones may not have started.
        const sizes = await page.$$eval('img[src*="/media/img/"]', (images) =>
          images.map((image) => ({
            src: (image as HTMLImageElement).src,
            width: (image as HTMLImageElement).naturalWidth,
            complete: (image as HTMLImageElement).complete,
          })),
        );
        // A live on air or ended shows its picture as the player's poster, not an <img>.
        if (target.name !== 'live') expect(sizes.filter((size) => size.width > 0).length).toBeGreaterThan(0);
        expect(sizes.filter((size) => size.complete && size.width === 0)).toEqual([]);
        if (target.name === 'epaper') {
          expect(await page.locator('.newspaper__sheet img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1200);
          expect(await page.locator('.newspaper__area').count()).toBeGreaterThan(0);
        }
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${target.name}-${theme}.png`), fullPage: true });
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }, 120_000);
  }

  for (const theme of ['day', 'night'] as const) {
    it(`home, detail and reading by ${theme}: no serious axe violation, no console problem, a screenshot`, async () => {
      // bypassCSP: axe is injected as an inline script, which the portal's CSP rightly refuses.
      const { page, problems } = await watchedPage(suite.browser, { bypassCSP: true });
      if (theme === 'night') await page.addInitScript((key) => localStorage.setItem(key, 'dark'), THEME_KEY);
      for (const target of pages) {
        await gotoHydrated(page, `${suite.portal.url}${target.path}`);
        // Suspense blocks and images settled, so the screenshot and the scan see the finished page.
        await networkSettled(page);
        if (target.name === 'home') await showAllBanners(page);
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${target.name}-${theme}.png`), fullPage: true });
        expect((await seriousAxeViolations(page)).map((line) => `${target.name}: ${line}`)).toEqual([]);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
