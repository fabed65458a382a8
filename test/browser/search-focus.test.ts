/**
 * Issue 29, item 2: focus is never left on a hidden element. Escape in the header's empty search box folds it to
 * nothing (Escape also empties a search field, as browsers do), and focus moves to the search button.
 */
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';

describeWithBrowser()('the search box and focus', () => {
  const suite = browserPortalSuite();

  it.each([
    ['empty', '', 'search__submit'],
    ['holding text', '青年', 'search__submit'],
  ])('after Escape in the %s box, focus is on a visible element', async (_label, text, focusedClass) => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 1296, height: 900 } });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const input = page.locator('.site-header .search__input');
      await input.focus();
      if (text) await input.fill(text);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => document.querySelector('.site-header .search')?.getAttribute('data-open') === 'false');
      // Once the box has folded (its transition included), the focused element still has a size on screen.
      await page.waitForFunction(() => !document.getAnimations().some((animation) => animation.playState === 'running'));
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        const box = element.getBoundingClientRect();
        return { className: element.className, visible: box.width > 1 && box.height > 1 && element.checkVisibility({ visibilityProperty: true }) };
      });
      expect(focused).toEqual({ className: focusedClass, visible: true });
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
