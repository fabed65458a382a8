/**
 * Article pages in a real browser: the float menu (text size, night mode remembered without a flash, WeChat
 * share QR and copy), menu pinning, back-to-top at 400px, and reading mode's previous/next links.
 */
import type { Browser } from 'playwright-core';
import { HOME_CATID, READING_LIST_SIZE } from '../../shared/constants';
import { qrMatrix } from '../../server/qr';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithBrowser } from '../support/requirements';
import { articleList, homeCategories } from '../support/upstream-data';
import { gotoHydrated, launchBrowser, scrollAndSettle, watchedPage, type WatchedPage } from '../support/browser';

describeWithBrowser()('article tools', () => {
  let t: TestPortal;
  let browser: Browser;
  let w: WatchedPage;
  /** The 10 newest of the first home category, as reading mode lists them. */
  let list: Array<{ catid: number; id: number; title: string }>;
  let detailUrl: string;

  beforeAll(async () => {
    t = await startTestPortal();
    browser = await launchBrowser();
    const [category] = await homeCategories(t.upstream.url, HOME_CATID);
    list = (await articleList(t.upstream.url, category!.catid, 1, READING_LIST_SIZE)).lists.map((item) => ({
      catid: item.catid,
      id: item.id,
      title: item.list_title || item.title,
    }));
    detailUrl = `${t.url}/detail/${list[1]!.catid}/${list[1]!.id}`;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  beforeEach(async () => {
    w = await watchedPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  });
  afterEach(async () => w.page.context().close());

  it('changes the article text size and remembers it', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, detailUrl);
    const size = () => page.$eval('.article__body', (el) => parseFloat(getComputedStyle(el).fontSize));
    const normal = await size();
    await page.locator('.float-menu input[type="range"]').fill('2');
    expect(await size()).toBeGreaterThan(normal);
    await page.locator('.float-menu input[type="range"]').fill('0');
    const small = await size();
    expect(small).toBeLessThan(normal);
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]');
    expect(await size()).toBe(small);
    expect(await page.inputValue('.float-menu input[type="range"]')).toBe('0');
    expect(problems).toEqual([]);
  });

  it('turns night mode on, and a reload paints it before any script of the bundle runs', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, detailUrl);
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const day = await background();
    await page.click('.float-menu__night');
    expect(await page.getAttribute('.float-menu__night', 'aria-pressed')).toBe('true');
    const night = await background();
    expect(night).not.toBe(day);
    // With the bundle blocked only the head script can apply the theme: no flash of the day theme.
    await page.route('**/assets/**/*.js', (route) => route.abort());
    await page.reload({ waitUntil: 'load' });
    expect(await page.evaluate(() => document.documentElement.classList.contains('theme-dark'))).toBe(true);
    expect(await background()).toBe(night);
    expect(problems.filter((line) => !line.includes('/assets/') && !line.includes('net::ERR_FAILED'))).toEqual([]);
  });

  it('shares to WeChat with a 260x260 QR code of the page and copies the link', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, detailUrl);
    // Brought into view first, and clicked once the float menu has pinned (or not) for that scroll: a click sent
    // while the menu moves to its pinned place lands where the button was (seen on a loaded machine).
    const share = page.locator('.float-menu__item:has-text("微信")');
    await share.scrollIntoViewIfNeeded();
    await scrollAndSettle(page, await page.evaluate(() => window.scrollY));
    await share.click();
    const dialog = page.locator('dialog.share-modal');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.locator('.modal__title').textContent()).toBe('分享到微信朋友圈');
    const qr = dialog.locator('img.qr-code');
    expect(await qr.getAttribute('width')).toBe('260');
    expect(await qr.getAttribute('height')).toBe('260');
    // The image shows, and its modules are exactly the QR library's encoding of this page's address.
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('dialog.share-modal img.qr-code');
      return image !== null && image.complete && image.naturalWidth > 0;
    });
    const svg = await page.evaluate(async () => {
      const image = document.querySelector<HTMLImageElement>('dialog.share-modal img.qr-code')!;
      return (await fetch(image.src)).text();
    });
    expect(svg).toContain(`<path d="${qrMatrix(page.url()).path}"`);
    await dialog.locator('button', { hasText: '复制链接' }).click();
    await page.locator('.toast', { hasText: '操作成功' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    const weibo = await page.getAttribute('.float-menu a[href*="weibo.com"]', 'href');
    expect(new URL(weibo!).searchParams.get('title')).toMatch(/#青年新闻网#$/);
    expect(problems).toEqual([]);
  });

  it('pins the float menu past header + 30 + top ad, and shows back-to-top after 400px', async () => {
    const { page } = w;
    await gotoHydrated(page, detailUrl);
    const threshold = await page.evaluate(() => {
      const header = document.querySelector<HTMLElement>('.site-header')!.offsetHeight;
      const ad = document.querySelector<HTMLElement>('.detail-top-ad')?.offsetHeight ?? 0;
      return header + 30 + ad;
    });
    expect(await page.locator('.back-to-top').count()).toBe(0);
    await scrollAndSettle(page, 390);
    expect(await page.locator('.back-to-top').count()).toBe(0);
    await scrollAndSettle(page, threshold - 5);
    expect(await page.getAttribute('.float-menu', 'class')).not.toContain('float-menu--pinned');
    await page.evaluate((y) => window.scrollTo(0, y + 50), threshold);
    await page.locator('.float-menu--pinned').waitFor();
    expect(await page.$eval('.float-menu', (el) => el.getBoundingClientRect().top)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 410));
    await page.locator('.back-to-top').waitFor();
    await page.click('.back-to-top');
    await page.waitForFunction(() => window.scrollY === 0);
    await page.locator('.back-to-top').waitFor({ state: 'detached' });
  });

  it('links reading mode to its neighbours in the category, hiding them at the ends', async () => {
    const { page, problems } = w;
    const [first, second] = list;
    const last = list[list.length - 1]!;
    await gotoHydrated(page, detailUrl);
    await page.click('.float-menu a:has-text("阅读模式")');
    await page.waitForURL(`**/detailReading/${second!.catid}/${second!.id}`);
    await page.locator('.reading__previous').waitFor();
    expect(await page.getAttribute('.reading__previous', 'href')).toBe(`/detailReading/${first!.catid}/${first!.id}`);
    expect(await page.textContent('.reading__previous')).toContain(`上一篇：${first!.title}`);
    expect(await page.getAttribute('.reading__next', 'href')).toBe(`/detailReading/${list[2]!.catid}/${list[2]!.id}`);
    expect(await page.getAttribute('.reading__back', 'href')).toBe(`/detail/${second!.catid}/${second!.id}`);

    await page.click('.reading__previous');
    await page.waitForURL(`**/detailReading/${first!.catid}/${first!.id}`);
    // The URL changes at once; the first article's page replaces the second's when its data has arrived.
    await page.locator(`.reading__next[href="/detailReading/${second!.catid}/${second!.id}"]`).waitFor();
    expect(await page.locator('.reading__previous').count()).toBe(0);

    await gotoHydrated(page, `${t.url}/detailReading/${last.catid}/${last.id}`);
    expect(await page.locator('.reading__previous').count()).toBe(1);
    expect(await page.locator('.reading__next').count()).toBe(0);
    expect(await page.textContent('.reading__previous time')).toBeTruthy();
    expect(problems).toEqual([]);
  });
});
