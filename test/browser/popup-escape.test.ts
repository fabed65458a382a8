/**
 * Issue 38, item 3: every popup the top bar opens from a button (媒体矩阵, 手机版, the signed-in reader's menu)
 * closes with Escape and gives focus back to its button, its aria-expanded in step, whether it was opened from the
 * keyboard (focus) or by the pointer (hover); pressing the button again opens it again.
 */
import type { Locator, Page } from 'playwright-core';
import { gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';
import { signInBrowserSuite, signInInBrowser } from '../support/sign-in-browser';

/** Each top-bar button with a popup that shows at this width, by its accessible name. */
async function popupButtons(page: Page): Promise<Locator[]> {
  const buttons = page.locator('.top-bar button[aria-haspopup="true"]');
  const visible: Locator[] = [];
  for (const button of await buttons.all()) if (await button.isVisible()) visible.push(button);
  return visible;
}

async function stateOf(page: Page, button: Locator) {
  const panel = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`);
  return {
    name: (await button.innerText()).trim(),
    expanded: await button.getAttribute('aria-expanded'),
    shown: await panel.isVisible(),
    focused: await button.evaluate((element) => element === document.activeElement),
  };
}

/** Until the popup of `button` shows (or not) and says so. */
async function waitOpen(page: Page, button: Locator, open: boolean): Promise<void> {
  await page.waitForFunction(
    ([element, wanted]) => {
      const panel = document.getElementById(element!.getAttribute('aria-controls') ?? '');
      const shown = panel !== null && getComputedStyle(panel).display !== 'none';
      return shown === wanted && element!.getAttribute('aria-expanded') === String(wanted);
    },
    [await button.elementHandle(), open] as const,
  );
}

describeWithBrowser()('Escape closes every top-bar popup', () => {
  const suite = signInBrowserSuite();

  // From 768px: under it the top bar is hidden, its entries rows of the 菜单 panel with no popup (issue 38, item
  // 2), and the 菜单 button's own Escape is phone-menu.test.ts's.
  it.each([1296, 768])('by keyboard and by pointer, focus back on its button, at %ipx, anonymous and signed in', async (width) => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 } });
    try {
      await gotoHydrated(page, `${suite.portal.origin}/`);
      const seen: string[] = [];
      for (const signedIn of [false, true]) {
        if (signedIn) await signInInBrowser(page, suite.portal, '逃逸键读者');
        const buttons = await popupButtons(page);
        expect(buttons.length).toBeGreaterThanOrEqual(signedIn ? 3 : 2);
        for (const button of buttons) {
          const name = (await button.innerText()).trim();
          seen.push(name);
          // Keyboard: focus opens it, Escape closes it and leaves focus on the button; Enter opens it again.
          await button.focus();
          await waitOpen(page, button, true);
          await page.keyboard.press('Escape');
          await waitOpen(page, button, false);
          expect(await stateOf(page, button)).toEqual({ name, expanded: 'false', shown: false, focused: true });
          await page.keyboard.press('Enter');
          await waitOpen(page, button, true);
          await page.keyboard.press('Escape');
          await waitOpen(page, button, false);
          await page.locator('.logo').focus();

          // Pointer: hovering opens it, Escape closes it while the pointer stays, focus on the button.
          await button.hover();
          await waitOpen(page, button, true);
          await page.keyboard.press('Escape');
          await waitOpen(page, button, false);
          expect(await stateOf(page, button)).toEqual({ name, expanded: 'false', shown: false, focused: true });
          // Leaving and coming back opens it again.
          await page.mouse.move(0, 600);
          await page.locator('.logo').focus();
          await button.hover();
          await waitOpen(page, button, true);
          await page.mouse.move(0, 600);
          await page.locator('.logo').focus();
          await waitOpen(page, button, false);
        }
      }
      expect(seen).toEqual(expect.arrayContaining(['媒体矩阵', '手机版', '逃逸键读者']));
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
