/**
 * Issue 38, item 6: every state the spec names can be produced through the reference API's control plane (as an
 * operator of `npm start` would, over HTTP) and is shown in a real browser: the three menu warnings of docs/product.md
 * §5, switched on while the portal runs, each on its own misconfigured entry; and hot news' skeleton while its
 * data is slow, then its five items. Screenshots in test-results/control-plane-states/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { HOT_NEWS_ID, HOT_NEWS_SIZE } from '../../shared/constants';
import { MENU_WARNINGS } from '../../shared/menu';
import { browserPortalSuite, gotoHydrated, screenshotTop, watchedPage } from '../support/browser';
import { callHook } from '../support/publish-hook';
import { describeWithBrowser } from '../support/requirements';
import { homeListEntry } from '../support/upstream-data';

const PURGE_SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';
const RESULTS = path.join(__dirname, '../../test-results/control-plane-states');
const SLOW_MS = 4000;
const READER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describeWithBrowser()('states produced through the control plane', () => {
  const suite = browserPortalSuite({ menuFaults: false, env: { PURGE_SECRET } });
  beforeAll(() => mkdirSync(RESULTS, { recursive: true }));
  afterEach(() => suite.portal.upstream.api.control.reset());

  const control = (action: string, body: object) => request(suite.portal.upstream.url).post(`/__control/${action}`).send(body).expect(200);

  it('shows each of the three menu warnings once the CMS serves the misconfigured entries, and none after', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      expect(await page.locator('.menu__item--misconfigured').count()).toBe(0);

      await control('menu-faults', { on: true });
      expect((await callHook(suite.portal.url, PURGE_SECRET, { tags: ['menu'], soft: false })).status).toBe(200);
      await gotoHydrated(page, `${suite.portal.url}/`);
      const broken = page.locator('.menu__item--misconfigured');
      const messages = await broken.evaluateAll((items) => items.map((item) => item.getAttribute('title')));
      expect([...messages].sort()).toEqual(Object.values(MENU_WARNINGS).sort());
      for (let index = 0; index < messages.length; index += 1) {
        const item = broken.nth(index);
        // Its group's panel opens on hover of the group (the last one's closed on leaving it).
        await page.mouse.move(5, 800);
        await item.locator('xpath=ancestor::li[contains(concat(" ", normalize-space(@class), " "), " menu__item ")][last()]').hover();
        await item.click();
        await page.locator('.toast', { hasText: messages[index]! }).waitFor();
      }
      await screenshotTop(page, path.join(RESULTS, 'menu-warnings.png'));

      await control('menu-faults', { on: false });
      expect((await callHook(suite.portal.url, PURGE_SECRET, { tags: ['menu'], soft: false })).status).toBe(200);
      await gotoHydrated(page, `${suite.portal.url}/`);
      expect(await page.locator('.menu__item--misconfigured').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('shows hot news’ skeleton while its data is slow, then its items', async () => {
    await control('latency', [{ path: `/list/${HOT_NEWS_ID}/`, ms: SLOW_MS }]);
    // An article no one has asked for yet: its render streams, so the skeleton goes out before hot news is read.
    const entry = await homeListEntry(suite.portal.upstream.url, 3);
    // A reader's browser: headless Chromium says HeadlessChrome, and a crawler's page is sent whole, every block in place.
    const { page, problems } = await watchedPage(suite.browser, { userAgent: READER_UA });
    try {
      await page.goto(`${suite.portal.url}/detail/${entry.catid}/${entry.id}`, { waitUntil: 'commit' });
      const skeleton = page.locator('.hot-news__list--loading');
      await skeleton.waitFor({ state: 'visible' });
      expect(await skeleton.locator('.skeleton-line').count()).toBe(HOT_NEWS_SIZE);
      expect(await skeleton.getAttribute('aria-busy')).toBe('true');
      await screenshotTop(page, path.join(RESULTS, 'hot-news-skeleton.png'));
      await page
        .locator('.hot-news__list:not(.hot-news__list--loading) li')
        .nth(HOT_NEWS_SIZE - 1)
        .waitFor({ timeout: SLOW_MS + 30_000 });
      expect(await skeleton.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
