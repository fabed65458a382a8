/**
 * Issue 29, item 2: a keyboard reader opens and closes a menu panel with Enter, Space and ↓, and Escape, again and
 * again, on a real button that says whether its panel is open; Space does not scroll the page.
 */
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';

describeWithBrowser()('the menu by keyboard', () => {
  const suite = browserPortalSuite();

  it('opens a panel with Enter, Space and ↓ and closes it with Escape, repeatedly, with aria-expanded', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 1296, height: 900 } });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const trigger = page.locator('.menu button.menu__label[aria-expanded]').first();
      const panelId = await trigger.getAttribute('aria-controls');
      expect(panelId).toBeTruthy();
      const panel = page.locator(`[id="${panelId}"]`);
      await trigger.focus();
      // Focus alone may open it (as hover does); Escape closes it whatever it did.
      await page.keyboard.press('Escape');
      const states: string[] = [];
      const state = async () => `${await trigger.getAttribute('aria-expanded')}/${(await panel.isVisible()) ? 'shown' : 'hidden'}`;
      for (let round = 0; round < 2; round += 1) {
        for (const key of ['Enter', ' ', 'ArrowDown']) {
          const scrolled = await page.evaluate(() => window.scrollY);
          await page.keyboard.press(key);
          await page.waitForFunction((element) => element?.getAttribute('aria-expanded') === 'true', await trigger.elementHandle());
          states.push(`${key}: ${await state()}`);
          expect({ key, scrollY: await page.evaluate(() => window.scrollY) }).toEqual({ key, scrollY: scrolled });
          await page.keyboard.press('Escape');
          await page.waitForFunction((element) => element?.getAttribute('aria-expanded') === 'false', await trigger.elementHandle());
          states.push(`Escape: ${await state()}`);
          expect(await page.evaluate(() => document.activeElement?.classList.contains('menu__label'))).toBe(true);
        }
      }
      expect(states).toEqual([...Array(2)].flatMap(() => ['Enter', ' ', 'ArrowDown'].flatMap((key) => [`${key}: true/shown`, 'Escape: false/hidden'])));
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
