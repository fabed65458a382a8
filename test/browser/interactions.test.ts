/**
 * Like, collect and subscribe in a real browser against the reference API: a visitor's like opens the sign-in
 * dialog and is done once the simulated QR sign-in returns to the page; unlike; collect an article and a video;
 * subscribe to a column author and a tag (states come back after a reload, one batch_exist per kind); a failing
 * toggle rolls back with a toast; closing the dialog forgets the action; and the anonymous cached page never
 * carries any reader's state.
 */
import type { Browser, Page } from 'playwright-core';
import { PENDING_KEY } from '../../shared/interactions';
import type { RawArticleDetail, RawColumnAuthorList, RawShikeCategoryItems } from '../../server/upstream/wire';
import { gotoHydrated, launchBrowser, watchedPage, type WatchedPage } from '../support/browser';
import type { ReferenceServer } from '../support/portal';
import { describeWithBrowser } from '../support/requirements';
import { startBrowserSignInPortal, type BrowserPortal } from '../support/sign-in';
import { signInFromDialog } from '../support/sign-in-browser';
import { taggedArticle, upstreamData } from '../support/upstream-data';

const like = '.float-menu button[data-interaction="thumbsup"]';
const collect = '.float-menu button[data-interaction="collection"]';

/** The answer to the page's call to `path` (set up before the navigation that makes it). */
function answered(page: Page, path: string): Promise<unknown> {
  return page.waitForResponse((response) => new URL(response.url()).pathname === path);
}

async function pressed(page: Page, selector: string): Promise<string | null> {
  return page.locator(selector).getAttribute('aria-pressed');
}

/** Waits until the button shows the state (its label and aria-pressed change together). */
async function waitPressed(page: Page, selector: string, value: boolean): Promise<void> {
  await page.locator(`${selector}[aria-pressed="${value}"]:not([aria-busy])`).waitFor();
}

describeWithBrowser()('likes, collections and subscriptions in a browser', () => {
  let upstream: ReferenceServer;
  let portal: BrowserPortal;
  let browser: Browser;
  let origin: string;
  let raw: RawArticleDetail;
  let detailPath: string;
  let w: WatchedPage;

  const batchCalls = (path: string): number =>
    Object.entries(upstream.api.control.stats().byPath)
      .filter(([key]) => key.startsWith(`POST ${path}?`))
      .reduce((sum, [, count]) => sum + count, 0);

  beforeAll(async () => {
    portal = await startBrowserSignInPortal();
    ({ upstream, origin } = portal);
    browser = await launchBrowser();
    raw = await taggedArticle(upstream.url);
    detailPath = `/detail/${raw.catid}/${raw.id}`;
    // One reader through the tests, signed in by the first one: the browser context keeps the session.
    w = await watchedPage(browser);
  });
  afterAll(async () => {
    await w?.page.context().close();
    await browser?.close();
    await portal?.close();
  });
  afterEach(() => upstream.api.control.setFailures([]));

  it('a visitor who clicks 点赞 is asked to sign in, and the like is done when they come back', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, `${origin}${detailPath}`);
    expect(await page.locator(like).textContent()).toContain('点赞');
    expect(await pressed(page, like)).toBe('false');
    await page.locator(`${like} .interaction__count`).waitFor();
    expect(await page.locator(`${like} .interaction__count`).textContent()).toBe('0');

    await page.click(like);
    await signInFromDialog(page, portal, '点赞读者', `${origin}${detailPath}`);
    await waitPressed(page, like, true);
    expect(await page.locator(`${like} .interaction__label`).textContent()).toBe('已点赞');
    await page.locator(`${like} .interaction__count`, { hasText: '1' }).waitFor();
    // Done once: the remembered action is gone, the CMS holds exactly one like.
    expect(await page.evaluate((key) => sessionStorage.getItem(key), PENDING_KEY)).toBeNull();
    expect(await upstreamData(upstream.url, `/api/thumbsup/get_num?catid=${raw.catid}&article_id=${raw.id}`)).toEqual({ num: 1 });
    expect(problems).toEqual([]);
  }, 60_000);

  it('unlikes', async () => {
    const { page, problems } = w;
    await page.click(like);
    await waitPressed(page, like, false);
    expect(await page.locator(`${like} .interaction__label`).textContent()).toBe('点赞');
    await page.locator(`${like} .interaction__count`, { hasText: '0' }).waitFor();
    expect(await upstreamData(upstream.url, `/api/thumbsup/get_num?catid=${raw.catid}&article_id=${raw.id}`)).toEqual({ num: 0 });
    expect(problems).toEqual([]);
  });

  it('collects the article; a reload shows it collected from one batch_exist per kind', async () => {
    const { page, problems } = w;
    await page.click(collect);
    await waitPressed(page, collect, true);
    expect(await page.locator(`${collect} .interaction__label`).textContent()).toBe('已收藏');
    const before = {
      likes: batchCalls('/api/thumbsup/batch_exist'),
      collections: batchCalls('/api/collection/batch_exist'),
      authors: batchCalls('/api/column_subscribe/batch_exist'),
    };
    const states = Promise.all(
      ['/api/thumbsup/batch_exist', '/api/collection/batch_exist', '/api/column_subscribe/batch_exist'].map((path) => answered(page, path)),
    );
    await gotoHydrated(page, `${origin}${detailPath}`);
    await states;
    await waitPressed(page, collect, true);
    expect(await pressed(page, like)).toBe('false');
    expect(batchCalls('/api/thumbsup/batch_exist') - before.likes).toBe(1);
    expect(batchCalls('/api/collection/batch_exist') - before.collections).toBe(1);
    // The side column's 20 authors (4 shown at a time) are asked about together, in one call.
    expect(batchCalls('/api/column_subscribe/batch_exist') - before.authors).toBe(1);
    expect(await page.locator('.special-columns button[data-interaction="author"]').count()).toBe(4);
    expect(problems).toEqual([]);
  });

  it('rolls a failed toggle back and says so', async () => {
    const { page, problems } = w;
    upstream.api.control.setFailures([{ path: '/api/collection/toggle', mode: 'code', code: 50000 }]);
    await page.click(collect);
    await page.locator('.toast', { hasText: '收藏失败，请稍后重试' }).waitFor();
    await waitPressed(page, collect, true);
    expect(await page.locator(`${collect} .interaction__label`).textContent()).toBe('已收藏');
    expect(problems).toEqual([]);
  });

  it('reading mode shows the same marks and likes from its own float menu', async () => {
    const { page, problems } = w;
    await gotoHydrated(page, `${origin}/detailReading/${raw.catid}/${raw.id}`);
    await waitPressed(page, collect, true);
    await waitPressed(page, like, false);
    await page.click(like);
    await waitPressed(page, like, true);
    await page.locator(`${like} .interaction__count`, { hasText: '1' }).waitFor();
    await page.click(like);
    await waitPressed(page, like, false);
    expect(problems).toEqual([]);
  });

  it('subscribes to a column author on /specialColumn, asking about the whole page in one call', async () => {
    const { page, problems } = w;
    const authors = await upstreamData<RawColumnAuthorList>(upstream.url, '/api/special_column_author/list?page=1&page_size=12');
    const author = authors.list[1]!;
    const before = batchCalls('/api/column_subscribe/batch_exist');
    const states = answered(page, '/api/column_subscribe/batch_exist');
    await gotoHydrated(page, `${origin}/specialColumn`);
    await states;
    const button = `.columnist-grid button[data-interaction="author"]:has(.visually-hidden:text-is("：${author.name}"))`;
    await page.locator(button).waitFor();
    await page.click(button);
    await waitPressed(page, button, true);
    expect(await page.locator(`${button} .interaction__label`).textContent()).toBe('已订阅');
    await gotoHydrated(page, `${origin}/specialColumn`);
    await waitPressed(page, button, true);
    expect(await page.locator('.columnist-grid button[data-interaction="author"][aria-pressed="true"]').count()).toBe(1);
    expect(batchCalls('/api/column_subscribe/batch_exist') - before).toBe(2);
    // The author's own page knows it too.
    await gotoHydrated(page, `${origin}/specialColumnDetail/${author.id}`);
    await waitPressed(page, '.feed__header button[data-interaction="author"]', true);
    expect(problems).toEqual([]);
  });

  it('subscribes to a tag on its page', async () => {
    const { page, problems } = w;
    const tag = raw.tags[0]!;
    const path = `/tagDetail/${tag.id}`;
    await gotoHydrated(page, `${origin}${path}`);
    const button = '.feed__header button[data-interaction="tag"]';
    await waitPressed(page, button, false);
    await page.click(button);
    await waitPressed(page, button, true);
    await gotoHydrated(page, `${origin}${path}`);
    await waitPressed(page, button, true);
    expect(await page.locator(`${button} .interaction__label`).textContent()).toBe('已订阅');
    expect(problems).toEqual([]);
  });

  it('collects a video', async () => {
    const { page, problems } = w;
    const videos = await upstreamData<RawShikeCategoryItems>(upstream.url, '/api/video_album/shike_video_category_item?id=2839&page=1&page_size=1');
    const video = videos.list[0]!;
    const button = '.video-page__actions button[data-interaction="collection_video"]';
    await gotoHydrated(page, `${origin}/video/${video.catid}/${video.id}`);
    await page.click(button);
    await waitPressed(page, button, true);
    await gotoHydrated(page, `${origin}/video/${video.catid}/${video.id}`);
    await waitPressed(page, button, true);
    expect(problems).toEqual([]);
  });

  it('a visitor who closes the dialog leaves nothing to be done later', async () => {
    const { page, problems } = await watchedPage(browser);
    await gotoHydrated(page, `${origin}${detailPath}`);
    await page.click(collect);
    await page.locator('dialog.login-modal').waitFor({ state: 'visible' });
    expect(await page.evaluate((key) => sessionStorage.getItem(key), PENDING_KEY)).toContain('"collection"');
    await page.keyboard.press('Escape');
    await page.locator('dialog.login-modal').waitFor({ state: 'hidden' });
    // The dialog's close event (which forgets the action) is dispatched after it hides.
    await page.waitForFunction((key) => sessionStorage.getItem(key) === null, PENDING_KEY);
    expect(await pressed(page, collect)).toBe('false');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the anonymous page, cached, carries no reader and no reader state', async () => {
    const first = await fetch(`${origin}${detailPath}`);
    const again = await fetch(`${origin}${detailPath}`);
    const html = await again.text();
    await first.text();
    expect(again.headers.get('x-cache')).toMatch(/^(HIT|STALE)$/);
    expect(html).toContain('"user":null');
    expect(html).not.toContain('点赞读者');
    // The buttons need script, so the page carries none (test/browser/no-script.test.ts); hydration renders them.
    expect(html).toContain('class="float-menu');
    expect(html).not.toContain('data-interaction=');
    expect(html).not.toContain('aria-pressed="true" ');
    expect(html).not.toMatch(/已点赞|已收藏|已订阅/);
  });
});
