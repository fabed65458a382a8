/**
 * Issue 37, shown as an editor and a reader meet it: two portals on one Redis and the reference API behind a real
 * varnishd running the shipped VCL, two browser contexts. The editor opens a signed link from the CMS and sees a
 * draft update and a draft-only article under the preview banner, by typing and by clicking (client navigations);
 * at the same moment the reader gets the published title and a 404. Afterwards nothing of either draft is in Redis,
 * in either L1 or at the edge, by key and by body. Screenshots in test-results/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { MAIN_SITE } from '../../shared/sites';
import { seriousAxeViolations } from '../support/axe';
import { gotoHydrated, launchBrowser, screenshotTop, watchedPage } from '../support/browser';
import { rawRequest } from '../support/http';
import { pageKeyOf } from '../support/portal';
import { previewLink, storedTexts } from '../support/preview';
import { describeWithBrowser, describeWithRedis, describeWithVarnish, testRedisUrl } from '../support/requirements';
import { homeListEntry } from '../support/upstream-data';
import { portalsBehindVarnish } from '../support/varnish';

const PREVIEW_SECRET = 'a-preview-secret-the-cms-signs-its-links-with-0123';
const TOKEN = 'an-edge-purge-token-of-the-test-0123';
const RESULTS = path.join(__dirname, '../../test-results/preview');
const DRAFT = '草稿';

describeWithVarnish()('editor preview through the edge', () => {
  describeWithRedis()('two portals behind varnishd', () => {
    describeWithBrowser()('an editor and a reader at the same moment', () => {
      const suite = portalsBehindVarnish({
        purgeToken: TOKEN,
        env: (edge) => ({ PREVIEW_SECRET, EDGE_PURGE_URLS: edge.url, EDGE_PURGE_TOKEN: TOKEN, PUBLIC_ORIGIN_PROTOCOL: 'http' }),
        announceEveryMs: 500,
      });
      let browser: Browser;
      beforeAll(async () => {
        browser = await launchBrowser();
        mkdirSync(RESULTS, { recursive: true });
      });
      afterAll(async () => browser?.close());

      it('shows the drafts to the editor alone, and leaves nothing of them in Redis, either L1 or the edge', async () => {
        const { control } = suite.a.upstream.api;
        const entry = await homeListEntry(suite.a.upstream.url);
        const published = entry.list_title || entry.title;
        const updatePath = `/detail/${entry.catid}/${entry.id}`;
        const draftTitle = `${DRAFT}标题：编辑正在改的标题 ${entry.id}`;
        expect(control.draftArticle(entry.id, { title: draftTitle, list_title: draftTitle, content: `<p>${DRAFT}正文：改过的第一段</p>` })).toBe(true);
        const newId = control.createDraftArticle(entry.catid, { title: `${DRAFT}标题：还没发布的新文章`, content: `<p>${DRAFT}正文：新文章</p>` });
        const newPath = `/detail/${entry.catid}/${newId}`;
        const edge = suite.varnish.url;

        const editor = await watchedPage(browser);
        const reader = await watchedPage(browser);
        try {
          // The editor follows the CMS's link (through the edge), lands on the draft, and sees the banner.
          await gotoHydrated(editor.page, `${edge}${previewLink(PREVIEW_SECRET, updatePath)}`);
          expect(new URL(editor.page.url()).pathname).toBe(updatePath);
          await expectText(editor.page, '.article__title', draftTitle);
          await expectText(editor.page, '.preview-banner', '预览模式');
          await screenshotTop(editor.page, path.join(RESULTS, 'editor-draft-update.png'));
          // The banner is part of an accessible page: axe finds nothing serious with it there.
          expect(await seriousAxeViolations(editor.page)).toEqual([]);
          // By typing: the draft-only article.
          await gotoHydrated(editor.page, `${edge}${newPath}`);
          await expectText(editor.page, '.article__title', `${DRAFT}标题：还没发布的新文章`);
          // By clicking: home, then the draft's headline there, both client navigations, still in preview.
          await editor.page.locator('a[href="/"]').first().click();
          await editor.page.waitForURL(`${edge}/`);
          await editor.page.locator(`a[href="${updatePath}"]`, { hasText: draftTitle }).first().click();
          await editor.page.waitForURL(`${edge}${updatePath}`);
          await expectText(editor.page, '.article__title', draftTitle);
          await expectText(editor.page, '.preview-banner', '退出预览');

          // The reader, at the same moment: the published title, a 404 for the draft-only article.
          await gotoHydrated(reader.page, `${edge}${updatePath}`);
          await expectText(reader.page, '.article__title', published);
          expect(await reader.page.locator('.preview-banner').count()).toBe(0);
          expect(await reader.page.content()).not.toContain(DRAFT);
          const missing = await reader.page.goto(`${edge}${newPath}`);
          expect(missing?.status()).toBe(404);
          await screenshotTop(reader.page, path.join(RESULTS, 'reader-same-moment.png'));

          // 退出预览: the published page, no banner, no cookie.
          await gotoHydrated(editor.page, `${edge}${updatePath}`);
          await editor.page.locator('.preview-banner__exit').click();
          await editor.page.waitForSelector('html[data-hydrated="true"]');
          await expectText(editor.page, '.article__title', published);
          expect(await editor.page.locator('.preview-banner').count()).toBe(0);
          expect((await editor.page.context().cookies()).map((cookie) => cookie.name)).not.toContain('portal_preview');
          // Hydration matched every preview page, and nothing failed but the reader's 404.
          expect(editor.problems).toEqual([]);
          expect(reader.problems.filter((problem) => !problem.includes('404'))).toEqual([]);
        } finally {
          await editor.page.context().close();
          await reader.page.context().close();
        }

        // Nothing of either draft anywhere: Redis by body (every entry of the prefix), both L1 by key, the edge by
        // key (its object of each page is the reader's) and by body.
        for (const [key, text] of await storedTexts(testRedisUrl(), suite.a.cachePrefix)) expect([key, text.includes(DRAFT)]).toEqual([key, false]);
        for (const t of [suite.a, suite.b]) {
          const l1 = await request(t.url)
            .get('/_internal/l1')
            .query({ key: pageKeyOf(suite.a, MAIN_SITE.id, newPath) });
          expect(l1.body.entries).toEqual([{ key: pageKeyOf(suite.a, MAIN_SITE.id, newPath), present: false }]);
        }
        for (const target of [updatePath, newPath, '/']) {
          const atEdge = await rawRequest(edge, 'GET', target, { host: MAIN_SITE.domain });
          expect([target, atEdge.body.includes(DRAFT)]).toEqual([target, false]);
        }
        expect((await rawRequest(edge, 'GET', newPath, { host: MAIN_SITE.domain })).status).toBe(404);
      });
    });
  });
});

async function expectText(page: import('playwright-core').Page, selector: string, text: string): Promise<void> {
  await page.locator(selector, { hasText: text }).first().waitFor();
}
