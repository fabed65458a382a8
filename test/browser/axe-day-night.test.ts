/**
 * Issue 29, item 2: axe-core finds no serious or critical violation by day and by night (夜间, the theme the head
 * script reads from storage) at a phone's 390 px and the desktop's 1296 px, on home, an article, reading mode, a
 * list, search results, a video, a live and the personal center, each after hydration with its blocks settled.
 */
import type { Browser } from 'playwright-core';
import { encodeKeyword } from '../../shared/search-keyword';
import { THEME_KEY } from '../../shared/preferences';
import { seriousAxeViolations } from '../support/axe';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { firstLink } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

async function scan(browser: Browser, base: string, paths: readonly string[], width: number, theme: 'day' | 'night'): Promise<string[]> {
  // bypassCSP: axe is injected as an inline script, which the portal's CSP rightly refuses.
  const { page, problems } = await watchedPage(browser, { viewport: { width, height: 844 }, bypassCSP: true });
  try {
    if (theme === 'night') await page.addInitScript((key) => localStorage.setItem(key, 'dark'), THEME_KEY);
    const report: string[] = [];
    for (const path of paths) {
      await gotoHydrated(page, `${base}${path}`);
      await page.waitForLoadState('networkidle');
      expect({ path, dark: await page.evaluate(() => document.documentElement.classList.contains('theme-dark')) }).toEqual({ path, dark: theme === 'night' });
      report.push(...(await seriousAxeViolations(page)).map((line) => `${width} ${theme} ${path}: ${line}`));
    }
    expect(problems).toEqual([]);
    return report;
  } finally {
    await page.context().close();
  }
}

describeWithBrowser()('axe by day and by night at 390 and 1296 px', () => {
  const suite = browserPortalSuite();
  const paths: string[] = [];

  beforeAll(async () => {
    const base = suite.portal.url;
    const article = await firstLink(base, '/', /^\/detail\/\d+\/\d+$/);
    paths.push(
      '/',
      article,
      article.replace('/detail/', '/detailReading/'),
      await firstLink(base, '/siteMap', /\/V1\/\d+$/),
      `/search/${encodeKeyword('青年')}`,
      await firstLink(base, '/shike/2839', /^\/video\/\d+\/\d+$/),
      await firstLink(base, '/', /^\/liveStreamDetail\/\d+$/),
      '/personalCenter',
    );
  });

  for (const width of [390, 1296]) {
    for (const theme of ['day', 'night'] as const) {
      it(`${width} px by ${theme}: no serious or critical violation on any of the eight pages`, async () => {
        expect(await scan(suite.browser, suite.portal.url, paths, width, theme)).toEqual([]);
      }, 300_000);
    }
  }
});
