/**
 * Issue 38, item 3: every popup the top bar opens from a button (媒体矩阵, 手机版, the signed-in reader's menu)
 * closes with Escape and gives focus back to its button, its aria-expanded in step, whether it was opened from the
 * keyboard (focus) or by the pointer (hover); pressing the button again opens it again.
 * Issue 51, item 3: every panel a page opens (the top bar's popups, the menu's sub-category panels, the phone's 菜单,
 * the folded search) closes with Escape however it was opened, by hover, by click or by the keyboard, with focus
 * anywhere, at a phone's, a tablet's and a desktop's width, signed in and not.
 */
import type { ElementHandle, Locator, Page } from 'playwright-core';
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

/**
 * Every control on the page that opens a panel and shows now, as an element handle: a button saying aria-expanded,
 * and a menu entry whose link opens its sub-category panel on hover or focus (its panel the list beside it).
 */
async function panelTriggers(page: Page): Promise<Array<ElementHandle<Element>>> {
  const handles = await page.$$('[aria-expanded], .menu__item[data-catid] > a');
  const shown: Array<ElementHandle<Element>> = [];
  for (const handle of handles) if (await handle.isVisible()) shown.push(handle);
  return shown;
}

/** Whether `trigger`'s panel is open: its aria-expanded, or for a menu entry's link its panel shows. */
function isOpen(trigger: ElementHandle<Element>): Promise<boolean> {
  return trigger.evaluate((element) => {
    if (element.hasAttribute('aria-expanded')) return element.getAttribute('aria-expanded') === 'true';
    const panel = element.parentElement?.querySelector<HTMLElement>('.menu__level2');
    return panel !== null && panel !== undefined && panel.checkVisibility();
  });
}

/** What a reader would call it: its label, else its text. */
function nameOf(trigger: ElementHandle<Element>): Promise<string> {
  return trigger.evaluate((element) => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 12));
}

/** Pointer to the page's corner and focus nowhere, so a panel opened before has closed (checked by the caller). */
async function letGo(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

type Way = 'hover' | 'click' | 'keyboard';

/** Opens `trigger`'s panel the `way` asked; false when that way does not open this one (a click-only disclosure). */
async function openBy(page: Page, trigger: ElementHandle<Element>, way: Way): Promise<boolean> {
  if (way === 'hover') await trigger.hover();
  if (way === 'click') {
    // A menu entry's link goes to its page when clicked; its panel opens by hover and focus.
    if (await trigger.evaluate((element) => element.tagName === 'A')) return false;
    await trigger.click();
  }
  if (way === 'keyboard') {
    await trigger.focus();
    if (!(await isOpen(trigger))) await page.keyboard.press('Enter');
  }
  return isOpen(trigger);
}

describeWithBrowser()('Escape closes every panel however it was opened', () => {
  const suite = signInBrowserSuite();

  it.each([390, 768, 1296])('by hover, click and keyboard, focus anywhere, at %ipx, anonymous and signed in', async (width) => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 } });
    try {
      await gotoHydrated(page, `${suite.portal.origin}/`);
      const stillOpen: string[] = [];
      const opened = new Set<string>();
      for (const signedIn of [false, true]) {
        if (signedIn) await signInInBrowser(page, suite.portal, '面板读者');
        await letGo(page);
        const triggers = await panelTriggers(page);
        expect(triggers.length).toBeGreaterThanOrEqual(width < 768 ? 2 : 8);
        for (const trigger of triggers) {
          const name = await nameOf(trigger);
          for (const way of ['hover', 'click', 'keyboard'] as const) {
            if (!(await openBy(page, trigger, way))) continue;
            opened.add(`${name} ${way}`);
            // By the pointer, focus is not in the panel: the key goes to the page.
            if (way === 'hover') await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
            await page.keyboard.press('Escape');
            // Escape is a discrete event, rendered as it is handled: two frames later the panel has closed, or never will.
            await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
            if (await isOpen(trigger)) stillOpen.push(`${signedIn ? 'signed in' : 'anonymous'} ${name} by ${way}`);
            await letGo(page);
            // A disclosure a click opened is left open by the pointer's leaving: the next way starts closed.
            if ((await isOpen(trigger)) && (await trigger.getAttribute('aria-expanded')) !== null)
              await trigger.evaluate((element) => (element as HTMLElement).click());
          }
        }
      }
      expect(stillOpen).toEqual([]);
      // Each way opened something, so each was checked (a phone's panels open by tap and keys, none by hover).
      const ways = width < 768 ? ['click', 'keyboard'] : ['hover', 'click', 'keyboard'];
      expect(ways.filter((way) => ![...opened].some((entry) => entry.endsWith(way)))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
