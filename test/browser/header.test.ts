/** The header in a real browser: sub-menu on hover and keyboard, menu warnings, search box and history, sign-in dialog. */
import { MENU_WARNINGS } from '../../shared/menu';
import { encodeKeyword, SEARCH_HISTORY_KEY } from '../../shared/search';
import { describeWithBrowser } from '../support/requirements';
import { homeListEntry } from '../support/upstream-data';
import { browserPortalSuite, gotoHydrated, watchedPage, type WatchedPage } from '../support/browser';

describeWithBrowser()('header', () => {
  const suite = browserPortalSuite();
  let w: WatchedPage;

  beforeEach(async () => {
    w = await watchedPage(suite.browser);
  });
  afterEach(async () => w.page.context().close());

  it('opens a sub-menu on hover and closes it on leave', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, `${suite.portal.url}/`);
    const item = page.locator('.menu__item', { has: page.locator('.menu__level2') }).first();
    const panel = item.locator('.menu__level2');
    expect(await panel.isVisible()).toBe(false);
    await item.hover();
    await panel.waitFor({ state: 'visible' });
    await page.mouse.move(5, 600);
    await panel.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
  });

  it('opens a sub-menu on keyboard focus and closes it on Escape', async () => {
    const { page } = w;
    await gotoHydrated(page, `${suite.portal.url}/`);
    const item = page.locator('.menu__item', { has: page.locator('.menu__level2') }).first();
    const panel = item.locator('.menu__level2');
    await item.locator(':scope > a, :scope > span, :scope > button').first().focus();
    await panel.waitFor({ state: 'visible' });
    await page.keyboard.press('Tab');
    expect(await panel.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('.menu__level2') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  });

  it('shows the docs/product.md §5 warning when a misconfigured item is clicked', async () => {
    const { page } = w;
    await gotoHydrated(page, `${suite.portal.url}/`);
    const broken = page.locator('.menu__item--misconfigured').first();
    const message = await broken.getAttribute('title');
    expect(Object.values(MENU_WARNINGS)).toContain(message);
    await broken.locator('xpath=ancestor::li[contains(@class,"menu__item")]').hover();
    await broken.click();
    await page.locator('.toast', { hasText: message! }).waitFor();
  });

  it('opens on an empty click, searches with text, and keeps the history', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, `${suite.portal.url}/`);
    const input = page.locator('.search__input');
    expect((await input.boundingBox())?.width ?? 0).toBeLessThan(5);
    await page.click('.search__submit');
    expect(await page.locator('.search').getAttribute('data-open')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/');

    await input.fill('青年');
    await page.click('.search__clear');
    expect(await input.inputValue()).toBe('');
    await input.fill('青年');
    await page.check('input[name="type"][value="2"]');
    await page.click('.search__submit');
    await page.waitForURL(`**/search/${encodeKeyword('青年')}/2`);

    await gotoHydrated(page, `${suite.portal.url}/`);
    await page.click('.search__submit');
    await page.fill('.search__input', '科技 创新');
    await page.press('.search__input', 'Enter');
    await page.waitForURL(`**/search/${encodeKeyword('科技 创新')}/1`);
    await page.fill('.search__input', '青年');
    await page.press('.search__input', 'Enter');
    await page.waitForURL(`**/search/${encodeKeyword('青年')}/1`);
    const stored = await page.evaluate((key) => localStorage.getItem(key), SEARCH_HISTORY_KEY);
    expect(JSON.parse(stored ?? '[]')).toEqual(['青年', '科技 创新']);

    await page.click('.search__submit');
    expect(await page.locator('.search__history a').allTextContents()).toEqual(['青年', '科技 创新']);
    await page.locator('.search-page__types, .search-results, h1').first().waitFor();
    expect(problems).toEqual([]);
  });

  it.each(['Enter', 'the search button'])('after a search with %s, a click on the input reopens the 近期/全部 and history panel', async (how) => {
    const { page, problems } = w;
    await gotoHydrated(page, `${suite.portal.url}/`);
    const input = page.locator('.search__input');
    await page.click('.search__submit');
    await input.fill('青年');
    if (how === 'Enter') await input.press('Enter');
    else await page.click('.search__submit');
    await page.waitForURL(`**/search/${encodeKeyword('青年')}/1`);
    await page.waitForFunction(() => document.querySelector('.search')?.getAttribute('data-open') === 'false');
    await input.click();
    await page.waitForFunction(() => document.querySelector('.search')?.getAttribute('data-open') === 'true');
    await page.locator('.search__types').waitFor({ state: 'visible' });
    expect(await page.locator('.search__history a').first().textContent()).toBe('青年');
    expect(problems).toEqual([]);
  });

  it('the header 夜间 switch turns night mode on and off on any page, remembered, in step with the float menu', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, `${suite.portal.url}/siteMap`);
    const night = page.locator('.top-bar__night');
    await night.click();
    await page.waitForFunction(() => document.documentElement.classList.contains('theme-dark'));
    expect(await night.textContent()).toBe('日间');
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]');
    expect(await page.evaluate(() => document.documentElement.classList.contains('theme-dark'))).toBe(true);
    // On an article, the float menu's switch and the header's show the same state and either turns it off.
    const first = await homeListEntry(suite.portal.upstream.url);
    await gotoHydrated(page, `${suite.portal.url}/detail/${first.catid}/${first.id}`);
    await page.waitForFunction(() => document.querySelector('.float-menu__night')?.getAttribute('aria-pressed') === 'true');
    await page.locator('.float-menu__night').click();
    await page.waitForFunction(() => !document.documentElement.classList.contains('theme-dark'));
    expect(await night.textContent()).toBe('夜间');
    expect(problems).toEqual([]);
  });

  it('without script the search form still reaches the search route', async () => {
    const context = await suite.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${suite.portal.url}/`);
    await page.fill('.search__input', '青年');
    await page.press('.search__input', 'Enter');
    await page.waitForURL(`**/search/${encodeKeyword('青年')}/1`);
    await context.close();
  });

  it('opens the WeChat sign-in dialog from 订阅', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, `${suite.portal.url}/`);
    await page.click('.top-bar__subscribe');
    const dialog = page.locator('dialog.login-modal');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.locator('.modal__title').textContent()).toBe('微信登录');
    expect(Math.round((await dialog.boundingBox())?.width ?? 0)).toBe(400);
    // This portal has no WeChat app id: the dialog says so instead of framing a QR page that cannot work.
    expect(await dialog.locator('.login-modal__closed').textContent()).toBe('微信登录暂未开放');
    expect(await dialog.locator('iframe').count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
  });
});
