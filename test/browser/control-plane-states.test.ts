/**
 * Issue 38, item 6: every state the spec names can be produced through the reference API's control plane (as an
 * operator of `npm start` would, over HTTP) and is shown in a real browser: the three menu warnings of docs/product.md
 * §5, switched on while the portal runs, each on its own misconfigured entry (in the browser); and hot news'
 * skeleton streamed to a reader while its data is slow, then its five items (the page's chunks as they come), and
 * as tall as they are at every width (issue 51, item 3).
 * Screenshots in test-results/control-plane-states/.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { HOT_NEWS_ID, HOT_NEWS_SIZE } from '../../shared/constants';
import { MENU_WARNINGS } from '../../shared/menu';
import { MAIN_SITE } from '../../shared/sites';
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
      expect((await callHook(suite.portal.url, PURGE_SECRET, { tags: ['menu'], soft: false, event: 'menu-faults-on' })).status).toBe(200);
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
      expect((await callHook(suite.portal.url, PURGE_SECRET, { tags: ['menu'], soft: false, event: 'menu-faults-off' })).status).toBe(200);
      await gotoHydrated(page, `${suite.portal.url}/`);
      expect(await page.locator('.menu__item--misconfigured').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('streams hot news’ skeleton while its data is slow, then its items', async () => {
    await control('latency', [{ path: `/list/${HOT_NEWS_ID}/`, ms: SLOW_MS }]);
    // An article's page, and hot news as the portal may hold them from the home page before (a link the browser
    // prefetched), go: this page's render asks the slow CMS for hot news, and streams the skeleton meanwhile.
    const entry = await homeListEntry(suite.portal.upstream.url, 3);
    const article = `/detail/${entry.catid}/${entry.id}`;
    const purge = await callHook(suite.portal.url, PURGE_SECRET, {
      tags: [`cat:${HOT_NEWS_ID}`],
      urls: [`https://${MAIN_SITE.domain}${article}`],
      soft: false,
      event: 'skeleton',
    });
    expect(purge.status).toBe(200);
    // As a reader's browser gets it (a crawler's page is sent whole, every block in place): the chunks as they come.
    const chunks = await streamedChunks(`${suite.portal.url}${article}`, READER_UA);
    const skeletonAt = chunks.findIndex((chunk) => chunk.text.includes('hot-news__list--loading'));
    const itemsAt = chunks.findIndex((chunk) => chunk.text.includes('hot-news__rank'));
    expect(skeletonAt).toBeGreaterThanOrEqual(0);
    expect(itemsAt).toBeGreaterThan(skeletonAt);
    // The skeleton was on the reader's screen while hot news was slow: its items came at least that much later.
    expect(chunks[itemsAt]!.at - chunks[skeletonAt]!.at).toBeGreaterThanOrEqual(SLOW_MS - 500);
    const skeleton = /<ol class="hot-news__list hot-news__list--loading" aria-busy="true">(.*?)<\/ol>/.exec(chunks[skeletonAt]!.text);
    expect(skeleton?.[1]?.match(/class="skeleton-line"/g)).toHaveLength(HOT_NEWS_SIZE);
  });

  it('holds hot news’ height with its skeleton, so nothing below moves, at 360, 390, 768, 1296 and 1920 px', async () => {
    const entry = await homeListEntry(suite.portal.upstream.url, 3);
    const { page } = await watchedPage(suite.browser, { userAgent: READER_UA });
    try {
      await gotoHydrated(page, `${suite.portal.url}/detail/${entry.catid}/${entry.id}`);
      const measured: Array<{ width: number; list: number; skeleton: number }> = [];
      for (const width of [360, 390, 768, 1296, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        // The skeleton as the portal streams it (the test above checks that form), put beside the loaded list.
        const heights = await page.evaluate((size) => {
          const list = document.querySelector('.hot-news__list:not(.hot-news__list--loading)')!;
          const skeleton = document.createElement('ol');
          skeleton.className = 'hot-news__list hot-news__list--loading';
          skeleton.innerHTML = '<li class="skeleton-line"></li>'.repeat(size);
          list.after(skeleton);
          const both = { list: list.getBoundingClientRect().height, skeleton: skeleton.getBoundingClientRect().height };
          skeleton.remove();
          return both;
        }, HOT_NEWS_SIZE);
        measured.push({ width, ...heights });
      }
      expect(measured.filter(({ list }) => list > 0).length).toBeGreaterThanOrEqual(3);
      expect(measured.filter(({ list, skeleton }) => Math.abs(list - skeleton) > 0.5)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});

/** The chunks of a page as the portal streams them, each with when it came (ms since the request). */
function streamedChunks(url: string, userAgent: string): Promise<Array<{ at: number; text: string }>> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'user-agent': userAgent } }, (res) => {
        const chunks: Array<{ at: number; text: string }> = [];
        res.setEncoding('utf8');
        res.on('data', (text: string) => chunks.push({ at: performance.now() - started, text }));
        res.on('end', () => resolve(chunks));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
