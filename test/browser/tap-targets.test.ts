/**
 * Issue 29, item 1 and issue 38, item 4, signed in: below 768px every control a reader taps is at least 44×44 CSS
 * px (WCAG 2.5.5) in every section of the personal center, at 360 and 390px (every other page kind, the 404 page
 * and a live of each state: the page sweep, test/browser/sweep-phone.test.ts, with test/support/layout.ts's
 * measure). Offenders are listed by page, element, text and size, and a page with one is screenshotted into
 * test-results/tap-targets/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { gotoHydrated, screenshotTop, watchedPage } from '../support/browser';
import { MIN_TARGET_PX, smallTargets } from '../support/layout';
import { describeWithBrowser } from '../support/requirements';
import { signInBrowserSuite, signInInBrowser } from '../support/sign-in-browser';
import { PERSONAL_PAGE_SIZE, PERSONAL_TABS } from '../../shared/personal-center';

/** A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not. */
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE_WIDTHS = [360, 390];
const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-results', 'tap-targets');

/** The page's small targets as `where: fault`; the page is screenshotted when it has any, for a person to see. */
async function faultsOf(page: Page, where: string): Promise<string[]> {
  const faults = await smallTargets(page, MIN_TARGET_PX);
  if (faults.length > 0) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await screenshotTop(page, path.join(SCREENSHOTS, `${where.replace(/[^a-zA-Z0-9]+/g, '_')}.png`));
  }
  return faults.map((fault) => `${where}: ${fault}`);
}

describeWithBrowser()('tap targets of a signed-in reader on a phone', () => {
  const suite = signInBrowserSuite();

  it('makes every control of the personal center at least 44×44px at 360 and 390px, in every section, with a second page', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 390, height: 844 }, userAgent: DESKTOP_UA });
    try {
      const { origin, upstream } = suite.portal;
      await gotoHydrated(page, `${origin}/personalCenter`);
      await signInInBrowser(page, suite.portal, '手机读者');
      // One more collected article than a page holds, so the list has its pagination, and a video, a column
      // author and a tag, so every section has an entry to tap (the tag's chip was 36px high).
      const { articles, videos, columnAuthors, tags } = upstream.api.dataset;
      const calls: Array<[string, Record<string, number>]> = [
        ...articles
          .slice(0, PERSONAL_PAGE_SIZE + 1)
          .map((article): [string, Record<string, number>] => ['/api/collection/toggle', { catid: article.catid, article_id: article.id }]),
        ['/api/collection_video/toggle', { catid: videos[0]!.catid, article_id: videos[0]!.id }],
        ['/api/special_column_author/toggle', { author_id: columnAuthors[2]!.id }],
        ['/api/tag/toggle', { tag_id: tags[1]!.id }],
      ];
      for (const [api, body] of calls) {
        const code = await page.evaluate(
          async ([url, json]) =>
            (
              (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) })).json()) as {
                code: number;
              }
            ).code,
          [api, body] as const,
        );
        expect([api, code]).toEqual([api, 0]);
      }
      const faults: string[] = [];
      for (const width of PHONE_WIDTHS) {
        await page.setViewportSize({ width, height: 844 });
        for (const tab of PERSONAL_TABS) {
          await gotoHydrated(page, `${origin}/personalCenter?tab=${tab}`);
          await page.locator('.profile-card__name').waitFor();
          if (tab === 'articles') expect(await page.locator('main .pagination a').count()).toBeGreaterThan(0);
          if (tab === 'tags') await page.locator(`.personal-tags a[href="/tagDetail/${tags[1]!.id}"]`).waitFor();
          faults.push(...(await faultsOf(page, `signed in ${tab} at ${width}px`)));
        }
      }
      expect(faults).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
