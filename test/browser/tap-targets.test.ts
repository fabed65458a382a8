/**
 * Issue 29, item 1: on a phone (390px) every control a reader taps is at least 44×44 CSS px (WCAG 2.5.5), on
 * every page kind of the issue, not only the top bar. Every visible link, button, field and summary is measured
 * across the whole page (the menu opened by its 菜单 button, so its entries count too), except what WCAG exempts:
 * a link inside running text (an inline link with sentence text beside it, or in the article's body), and what a
 * finger cannot hit (pointer-events: none: a carousel's dots on a phone, whose slides its 44px buttons reach). All at
 * 44px leaves nothing for Lighthouse's spacing rule, which only weighs targets smaller than that. Offenders are
 * listed by page, element, text and size. The personal center is measured for a visitor and, signed in, in each
 * of its sections with a second page of collected articles.
 */
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { MIN_TARGET_PX, smallTargets } from '../support/layout';
import { phoneReaderPages } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';
import { signInBrowserSuite, signInInBrowser } from '../support/sign-in';
import { PERSONAL_PAGE_SIZE, PERSONAL_TABS } from '../../shared/personal-center';

/** A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not. */
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describeWithBrowser()('tap targets on a phone', () => {
  const suite = browserPortalSuite();

  it('makes every link, button and field outside running text at least 44×44px at 390px on every page kind', async () => {
    const pages = await phoneReaderPages(suite.portal.url);
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 390, height: 844 }, userAgent: DESKTOP_UA });
    try {
      const faults: string[] = [];
      const measured: string[] = [];
      for (const [kind, path] of Object.entries(pages)) {
        await gotoHydrated(page, `${suite.portal.url}${path}`);
        // The menu behind its button is part of the page a reader taps through (reading mode has no header).
        if (kind !== 'reading') {
          await page.locator('button.menu-toggle').click();
          await page.waitForFunction(() => document.querySelector('.menu-toggle')?.getAttribute('aria-expanded') === 'true');
        }
        faults.push(...(await smallTargets(page, MIN_TARGET_PX)).map((fault) => `${kind}: ${fault}`));
        measured.push(kind);
      }
      expect(measured).toEqual(Object.keys(pages));
      expect(faults).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});

describeWithBrowser()('tap targets of a signed-in reader on a phone', () => {
  const suite = signInBrowserSuite();

  it('makes every control of the personal center at least 44×44px at 390px, in every section, with a second page', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 390, height: 844 }, userAgent: DESKTOP_UA });
    try {
      const { origin, upstream } = suite.portal;
      await gotoHydrated(page, `${origin}/personalCenter`);
      await signInInBrowser(page, suite.portal, '手机读者');
      // One more collected article than a page holds, so the list has its pagination.
      for (const article of upstream.api.dataset.articles.slice(0, PERSONAL_PAGE_SIZE + 1)) {
        await page.evaluate(
          async (body) =>
            void (await fetch('/api/collection/toggle', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })),
          { catid: article.catid, article_id: article.id },
        );
      }
      const faults: string[] = [];
      for (const tab of PERSONAL_TABS) {
        await gotoHydrated(page, `${origin}/personalCenter?tab=${tab}`);
        await page.locator('.profile-card__name').waitFor();
        if (tab === 'articles') expect(await page.locator('main .pagination a').count()).toBeGreaterThan(0);
        faults.push(...(await smallTargets(page, MIN_TARGET_PX)).map((fault) => `${tab}: ${fault}`));
      }
      expect(faults).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
