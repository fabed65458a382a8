/**
 * Issue 6's whole journey as one reader lives it, in a real browser against the reference API: a visitor's
 * 点赞 asks for sign-in, the simulated WeChat QR sign-in returns to the article with the like done; the reader
 * collects the article, subscribes to one of its tags and to a column author with the page's own buttons, finds
 * all three in the personal center (opened from the user menu), logs out, and is a visitor again.
 */
import type { Page } from 'playwright-core';
import { href } from '../../shared/routes';
import { gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';
import { signInBrowserSuite, signInFromDialog } from '../support/sign-in-browser';
import { taggedArticle } from '../support/upstream-data';

const NICKNAME = '全程读者';

/** Clicks an interaction button and waits for the CMS's answer to settle it pressed. */
async function press(page: Page, selector: string): Promise<void> {
  await page.locator(`${selector}[aria-pressed="false"]:not([aria-busy])`).waitFor();
  await page.click(selector);
  await page.locator(`${selector}[aria-pressed="true"]:not([aria-busy])`).waitFor();
}

describeWithBrowser()('a reader signs in, likes, collects, subscribes, finds it all in the personal center, logs out', () => {
  const suite = signInBrowserSuite();

  it('runs end to end', async () => {
    const { portal, browser } = suite;
    const { origin, upstream } = portal;
    const { page, problems } = await watchedPage(browser);
    const raw = await taggedArticle(upstream.url);
    const tag = raw.tags[0]!;
    const detailPath = href.detail(raw.catid, raw.id);

    // A visitor likes: the sign-in dialog, the simulated QR page, back on the article with the like done.
    await gotoHydrated(page, `${origin}${detailPath}`);
    const like = '.float-menu button[data-interaction="thumbsup"]';
    await page.click(like);
    await signInFromDialog(page, portal, NICKNAME, `${origin}${detailPath}`);
    await page.locator(`${like}[aria-pressed="true"]:not([aria-busy])`).waitFor();
    expect(await page.textContent('.user-menu__trigger')).toContain(NICKNAME);

    // Collect the article, subscribe to its tag and to a column author, each with the page's own button.
    await press(page, '.float-menu button[data-interaction="collection"]');
    await gotoHydrated(page, `${origin}${href.tag(tag.id)}`);
    await press(page, '.feed__header button[data-interaction="tag"]');
    await gotoHydrated(page, `${origin}/specialColumn`);
    const authorButton = '.columnist-grid button[data-interaction="author"]';
    const authorLabel = (await page.locator(authorButton).first().locator('.visually-hidden').textContent()) ?? '';
    const authorName = authorLabel.replace(/^：/, '');
    expect(authorName.length).toBeGreaterThan(0);
    await press(page, `${authorButton}:has(.visually-hidden:text-is("${authorLabel}"))`);

    // The personal center, from the user menu (a client-side navigation): all three are there.
    await page.locator('.user-menu__trigger').hover();
    await page.locator('.user-menu a', { hasText: '个人中心' }).click();
    await page.waitForURL(`${origin}/personalCenter`);
    await page.locator(`.personal-articles a[href="${detailPath}"]`).waitFor();
    await page.locator('.personal-tabs a', { hasText: '订阅的专栏' }).click();
    await page.locator('.personal-authors .columnist__name', { hasText: authorName }).waitFor();
    await page.locator('.personal-tabs a', { hasText: '订阅的标签' }).click();
    await page.locator('.personal-tags a', { hasText: `#${tag.name}` }).waitFor();

    // Log out: home as a visitor; the personal center is the sign-in prompt again.
    await page.locator('.user-menu__trigger').focus();
    // 退出登录 is an entry like 个人中心, not a default grey button.
    const looks = await page.$$eval('.user-menu .tooltip__panel a, .user-menu .tooltip__panel button', (entries) =>
      entries.map((entry) => {
        const style = getComputedStyle(entry);
        return [style.fontSize, style.fontFamily, style.color, style.backgroundColor, style.borderTopStyle, style.padding, style.textAlign, style.width].join(
          '|',
        );
      }),
    );
    expect(looks).toHaveLength(2);
    expect(looks[1]).toBe(looks[0]);
    await page.locator('.user-menu button', { hasText: '退出登录' }).click();
    await page.waitForURL(`${origin}/`);
    await page.locator('.top-bar__subscribe').waitFor();
    expect(await page.content()).not.toContain(NICKNAME);
    await gotoHydrated(page, `${origin}/personalCenter`);
    expect(await page.textContent('main')).toContain('登录后可查看您的收藏');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 180_000);
});
