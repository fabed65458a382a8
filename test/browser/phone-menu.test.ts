/**
 * Issue 29, item 1: on a phone (under 768px) the category menu is one column behind a 菜单 button, a disclosure
 * that says with aria-expanded whether the menu shows, works by keyboard and closes on Escape with focus back on
 * it; without script there is no button and the menu is in the page's flow. The search is behind its icon (issue
 * 38): with script a tap opens the field, without script the icon leads to the search page. From 768px up there is
 * no button and the menu shows as before.
 */
import type { Page, Route } from 'playwright-core';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';

/** A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not. */
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE = { width: 390, height: 844 };

/** The boxes of the menu's level-1 entries as a reader sees them (what each one's link or button takes). */
function entryBoxes(page: Page) {
  return page
    .locator('#site-menu .menu__level1 > .menu__item > :is(a, button, span)')
    .evaluateAll((targets) => targets.map((target) => target.getBoundingClientRect()).map(({ x, width, height }) => ({ x, width, height })));
}

describeWithBrowser()('the menu and search on a phone', () => {
  const suite = browserPortalSuite();

  it('hides the menu behind a 菜单 button that opens it by click or keyboard and closes on Escape, focus back on the button', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: PHONE, userAgent: DESKTOP_UA });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const toggle = page.locator('button.menu-toggle');
      const menu = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
      expect(await toggle.isVisible()).toBe(true);
      expect(await toggle.innerText()).toContain('菜单');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await menu.isVisible()).toBe(false);

      const states: string[] = [];
      const state = async (step: string) =>
        states.push(`${step}: ${await toggle.getAttribute('aria-expanded')}/${(await menu.isVisible()) ? 'shown' : 'hidden'}`);
      await toggle.click();
      await state('click');
      // One column: every entry starts at the same x, spans the menu and is a tap target of at least 44px.
      const boxes = await entryBoxes(page);
      expect(boxes.length).toBeGreaterThan(3);
      expect(new Set(boxes.map((box) => Math.round(box.x))).size).toBe(1);
      expect(boxes.filter((box) => box.height < 44 || box.width < PHONE.width - 64)).toEqual([]);
      await toggle.click();
      await state('click again');

      for (const key of ['Enter', ' ']) {
        await toggle.focus();
        await page.keyboard.press(key);
        await state(key);
        // Into the menu and out again with Escape: the menu closes and the button has focus.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.closest('#site-menu') !== null)).toBe(true);
        await page.keyboard.press('Escape');
        // The first entry with a panel may have opened it on focus: that Escape closes the panel only.
        if (await menu.isVisible()) await page.keyboard.press('Escape');
        await state('Escape');
        expect(await page.evaluate(() => document.activeElement?.classList.contains('menu-toggle'))).toBe(true);
      }
      expect(states).toEqual([
        'click: true/shown',
        'click again: false/hidden',
        'Enter: true/shown',
        'Escape: false/hidden',
        ' : true/shown',
        'Escape: false/hidden',
      ]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('closes a sub-category panel before the menu on Escape, and closes the menu on navigating', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: PHONE, userAgent: DESKTOP_UA });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const toggle = page.locator('button.menu-toggle');
      await toggle.click();
      const trigger = page.locator('#site-menu button.menu__label[aria-expanded]').first();
      const panel = page.locator(`[id="${await trigger.getAttribute('aria-controls')}"]`);
      await trigger.focus();
      if ((await trigger.getAttribute('aria-expanded')) === 'false') await page.keyboard.press('Enter');
      expect(await panel.isVisible()).toBe(true);
      // In the flow under its entry, not a popup over the page: the entry after it starts below the panel.
      const panelBox = (await panel.boundingBox())!;
      const nextEntry = (await trigger.locator('xpath=../following-sibling::li[1]').boundingBox())!;
      expect(nextEntry.y).toBeGreaterThanOrEqual(panelBox.y + panelBox.height - 1);

      await page.keyboard.press('Escape');
      expect({ panel: await panel.isVisible(), menu: await toggle.getAttribute('aria-expanded') }).toEqual({ panel: false, menu: 'true' });
      await page.keyboard.press('Escape');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      await toggle.click();
      // A tap on the entry opens its panel; a sub-category's link there leaves home.
      await trigger.click();
      const link = panel.locator('a[href^="/"]').first();
      const target = await link.getAttribute('href');
      await link.click();
      await page.waitForURL((url) => url.pathname === target);
      await page.waitForFunction(() => document.querySelector('.menu-toggle')?.getAttribute('aria-expanded') === 'false');
      expect(await page.locator('#site-menu').isVisible()).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('without script shows no button and keeps the menu in the flow, each entry reachable', async () => {
    const { page } = await watchedPage(suite.browser, { viewport: PHONE, userAgent: DESKTOP_UA, javaScriptEnabled: false });
    try {
      // 'load': without a script to wait for, the document can be parsed before the stylesheet has come.
      await page.goto(`${suite.portal.url}/`, { waitUntil: 'load' });
      expect(await page.locator('button.menu-toggle').isVisible()).toBe(false);
      expect(await page.locator('#site-menu').isVisible()).toBe(true);
      const boxes = await entryBoxes(page);
      expect(boxes.length).toBeGreaterThan(3);
      expect(boxes.filter((box) => box.height < 44)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  // The head script set `js` (the button shows, the menu folds) expecting the bundle; when the bundle cannot load it
  // takes the class back, so the page is the no-script page: the menu in the flow, the search field open.
  for (const [how, refuse] of [
    ['blocked', (route: Route) => route.abort('blockedbyclient')],
    ['a 404', (route: Route) => route.fulfill({ status: 404, contentType: 'text/html', body: 'not here' })],
  ] as const) {
    it(`with the bundle's entry ${how}, shows the menu in the flow and no dead 菜单 button`, async () => {
      const { page } = await watchedPage(suite.browser, { viewport: PHONE, userAgent: DESKTOP_UA });
      try {
        let refusals = 0;
        await page.route('**/assets/entry-*.js', (route) => {
          refusals += 1;
          return refuse(route);
        });
        await page.goto(`${suite.portal.url}/`, { waitUntil: 'load' });
        expect(refusals).toBeGreaterThan(0);
        await page.waitForFunction(() => !document.documentElement.classList.contains('js'));
        expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();
        expect(await page.locator('button.menu-toggle').isVisible()).toBe(false);
        expect(await page.locator('#site-menu').isVisible()).toBe(true);
        const boxes = await entryBoxes(page);
        expect(boxes.length).toBeGreaterThan(3);
        expect(boxes.filter((box) => box.height < 44)).toEqual([]);
        // The search icon submits its form without the bundle: the search page, whose own field searches (issue 38).
        await page.locator('.site-header .search__submit').click();
        await page.waitForURL((url) => url.pathname === '/search');
        await page.locator('#search-page-keyword').fill('青年');
        await page.locator('#search-page-keyword').press('Enter');
        await page.waitForURL(/\/search\/[^/]+\/\d$/);
      } finally {
        await page.context().close();
      }
    });
  }

  it('when the bundle loads but cannot start (its state unreadable), shows the menu in the flow and no dead 菜单 button', async () => {
    const { page } = await watchedPage(suite.browser, { viewport: PHONE, userAgent: DESKTOP_UA });
    try {
      // The document as served, with the state the entry reads before hydrating cut short: start() throws.
      await page.route(`${suite.portal.url}/`, async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace(/(<script type="application\/json" id="[^"]+">)[^<]*/, '$1{"cut');
        await route.fulfill({ response, body });
      });
      const thrown = page.waitForEvent('pageerror');
      await page.goto(`${suite.portal.url}/`, { waitUntil: 'load' });
      await thrown;
      await page.waitForFunction(() => !document.documentElement.classList.contains('js'));
      expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();
      expect(await page.locator('button.menu-toggle').isVisible()).toBe(false);
      expect(await page.locator('#site-menu').isVisible()).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  it('keeps the search behind its icon on a phone: a tap opens the field, Enter searches, Escape folds it onto the icon', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: PHONE, userAgent: DESKTOP_UA });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const icon = page.locator('.site-header .search__submit');
      const input = page.locator('.site-header .search__input');
      expect({ expanded: await icon.getAttribute('aria-expanded'), width: Math.round((await input.boundingBox())?.width ?? 0) }).toEqual({
        expanded: 'false',
        width: 0,
      });
      await icon.click();
      await page.waitForFunction(() => document.activeElement?.classList.contains('search__input'));
      const box = (await input.boundingBox())!;
      expect({
        expanded: await icon.getAttribute('aria-expanded'),
        width: box.width >= 200,
        height: box.height >= 44,
        onScreen: box.x >= 0 && box.x + box.width <= PHONE.width,
      }).toEqual({ expanded: 'true', width: true, height: true, onScreen: true });
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => document.activeElement?.classList.contains('search__submit'));
      expect(await icon.getAttribute('aria-expanded')).toBe('false');
      await icon.click();
      await input.fill('青年');
      await input.press('Enter');
      await page.waitForURL(/\/search\/[^/]+\/\d$/);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('from 768px up shows no button and the menu as before, on its row', async () => {
    for (const width of [768, 1296]) {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 }, userAgent: DESKTOP_UA });
      try {
        await gotoHydrated(page, `${suite.portal.url}/`);
        expect({ width, toggle: await page.locator('button.menu-toggle').isVisible(), menu: await page.locator('#site-menu').isVisible() }).toEqual({
          width,
          toggle: false,
          menu: true,
        });
        // The entries side by side, as on a desktop.
        const boxes = await entryBoxes(page);
        expect({ width, rows: new Set(boxes.slice(0, 3).map((entry) => Math.round(entry.x))).size }).toEqual({ width, rows: 3 });
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
  });
});
