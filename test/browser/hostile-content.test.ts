/**
 * Issue 29, items 1 and 2, against CMS content built to break a layout (test/support/hostile-content.ts): every
 * page kind, from 360 to 1920 px, with headlines, summaries, sources, authors and tag names that are one unbroken
 * word, a URL or a 120-character Chinese sentence, articles with thirty tags, pictures missing, and empty lists.
 * At each width no page scrolls sideways, no text box is narrower than two of its characters and there is one h1;
 * at 360 and 390 px every tap target outside running text is 44×44 px. The menu is measured open (its last
 * panel of sub-categories too). Screenshots go to test-results/hostile-content/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import path from 'node:path';
import { encodeKeyword } from '../../shared/search-keyword';
import { browserPortalSuite, gotoHydrated, screenshotTop, scrollAndSettle, watchedPage } from '../support/browser';
import { emptyLists, makeHostile } from '../support/hostile-content';
import { startTestPortal, type TestPortal } from '../support/portal';
import { treeProblems, walkPage } from '../support/focus-walk';
import { layoutFaults, MIN_TARGET_PX, smallTargets, visibleH1s } from '../support/layout';
import { firstLink, pagesOfEveryKind } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

const WIDTHS = [360, 390, 768, 1296, 1920];
/** The width the Tab walk goes through every page at, on the visit of the layout pass. */
const WALK_WIDTH = 390;
// A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not.
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-results', 'hostile-content');

/**
 * The menu as a reader opens it, so its long names are measured too: on a phone the 菜单 button, then (at every
 * width) the last entry's panel of sub-categories, the one nearest the right edge on a desktop.
 */
async function openMenu(page: Page): Promise<void> {
  const toggle = page.locator('button.menu-toggle');
  if (await toggle.isVisible()) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await page.waitForFunction(() => document.querySelector('.menu-toggle')?.getAttribute('aria-expanded') === 'true');
  }
  const trigger = page.locator('#site-menu button.menu__label[aria-expanded]').last();
  if ((await trigger.count()) === 0) return;
  // Focus may open it already (a desktop's panels open on focus); Enter then would close it again.
  await trigger.focus();
  if ((await trigger.getAttribute('aria-expanded')) === 'false') await page.keyboard.press('Enter');
  await page.waitForFunction(
    () => [...document.querySelectorAll('#site-menu button.menu__label[aria-expanded]')].at(-1)?.getAttribute('aria-expanded') === 'true',
  );
}

describeWithBrowser()('every page kind with hostile CMS content, from 360 to 1920 px', () => {
  const suite = browserPortalSuite();
  const pages: string[] = [];

  beforeAll(async () => {
    makeHostile(suite.portal.upstream);
    const base = suite.portal.url;
    const article = await firstLink(base, '/', /^\/detail\/\d+\/\d+$/);
    pages.push(
      ...(await pagesOfEveryKind(base)),
      article.replace('/detail/', '/detailReading/'),
      // A tag every other article carries (thirty of them each): a long list of long names.
      `/tagDetail/${suite.portal.upstream.api.dataset.tags[0]!.id}`,
      '/search',
      // Empty lists: a search that finds nothing.
      `/search/${encodeKeyword('没有这样的文章啊')}`,
    );
  });

  // One pass over every page at every width (a browser context per width), its findings sorted by kind for the
  // tests below: loading 125 pages once keeps the suite at a few minutes. At 390 px the visit is also the Tab
  // walk's: the accessibility tree and the walk first, on the page as it came, then the menu opened and measured.
  const found = {
    sideways: [] as string[],
    squeezed: [] as string[],
    headings: [] as string[],
    targets: [] as string[],
    walked: [] as Array<{ pagePath: string; walked: boolean }>,
    keyboard: [] as string[],
  };
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const width of WIDTHS) {
      const { page } = await watchedPage(suite.browser, { viewport: { width, height: width === WALK_WIDTH ? 844 : 900 }, userAgent: DESKTOP_UA });
      const cdp = width === WALK_WIDTH ? await page.context().newCDPSession(page) : null;
      try {
        for (const pagePath of pages) {
          await gotoHydrated(page, `${suite.portal.url}${pagePath}`);
          if (cdp) {
            found.keyboard.push(...(await treeProblems(page, cdp, pagePath.startsWith('/detailReading/'))).map((problem) => `${pagePath}: ${problem}`));
            const walk = await walkPage(page);
            found.walked.push({ pagePath, walked: walk.stops > 5 });
            found.keyboard.push(...walk.problems.map((problem) => `${pagePath}: ${problem}`));
            // Measured from the top, as a reader arriving sees the page.
            await scrollAndSettle(page, 0);
          }
          await openMenu(page);
          const where = `${pagePath} at ${width}px`;
          const layout = await layoutFaults(page);
          if (layout.scrollWidth > layout.innerWidth) found.sideways.push(`${where}: ${layout.scrollWidth} > ${layout.innerWidth}`);
          found.squeezed.push(...layout.squeezed.map((text) => `${where}: ${text}`));
          const h1s = await visibleH1s(page);
          if (h1s.length !== 1) found.headings.push(`${where}: ${h1s.length} h1 ${JSON.stringify(h1s)}`);
          if (width < 768) found.targets.push(...(await smallTargets(page, MIN_TARGET_PX)).map((target) => `${where}: ${target}`));
          await screenshotTop(page, path.join(SCREENSHOTS, `${pagePath.replace(/[^a-zA-Z0-9]+/g, '_')}-${width}.png`));
        }
      } finally {
        await page.context().close();
      }
    }
  }, 1_800_000);

  it('scrolls no page sideways', () => {
    expect(found.sideways).toEqual([]);
  });

  it('squeezes no text box under two of its characters', () => {
    expect(found.squeezed).toEqual([]);
  });

  it('has one visible h1 on every page', () => {
    expect(found.headings).toEqual([]);
  });

  it('makes every tap target outside running text 44×44 px at 360 and 390 px', () => {
    expect(found.targets).toEqual([]);
  });

  it('without script at 360 and 1296 px (menu in the flow, no folded controls): no sideways scroll, no squeezed text, 44px targets on the phone', async () => {
    const faults: string[] = [];
    for (const width of [360, 1296]) {
      const { page } = await watchedPage(suite.browser, { viewport: { width, height: 900 }, userAgent: DESKTOP_UA, javaScriptEnabled: false });
      try {
        for (const pagePath of pages) {
          // 'load': without a script to wait for, the document can be parsed before the stylesheet has come.
          await page.goto(`${suite.portal.url}${pagePath}`, { waitUntil: 'load' });
          const where = `${pagePath} at ${width}px without script`;
          const layout = await layoutFaults(page);
          if (layout.scrollWidth > layout.innerWidth) faults.push(`${where}: ${layout.scrollWidth} > ${layout.innerWidth}`);
          faults.push(...layout.squeezed.map((text) => `${where}: ${text}`));
          if (width < 768) faults.push(...(await smallTargets(page, MIN_TARGET_PX)).map((target) => `${where}: ${target}`));
        }
      } finally {
        await page.context().close();
      }
    }
    expect(faults).toEqual([]);
  }, 900_000);

  it('at 390 px, Tab through every page kind opening every popup: focus never on a hidden element, landmarks named once', () => {
    expect(found.walked).toEqual(pages.map((pagePath) => ({ pagePath, walked: true })));
    expect(found.keyboard).toEqual([]);
  });
});

describeWithBrowser()('every page kind with every list empty, at 390 and 1296 px', () => {
  // Two portals on one reference API: the first finds a page of each kind while the lists still have entries, the
  // second (a cache of its own) serves them once every list is empty.
  const suite = browserPortalSuite();
  let empty: TestPortal;
  const pages: string[] = [];

  beforeAll(async () => {
    const base = suite.portal.url;
    const article = await firstLink(base, '/', /^\/detail\/\d+\/\d+$/);
    pages.push(
      ...(await pagesOfEveryKind(base)),
      `/tagDetail/${suite.portal.upstream.api.dataset.tags[0]!.id}`,
      article.replace('/detail/', '/detailReading/'),
    );
    emptyLists(suite.portal.upstream);
    empty = await startTestPortal({ upstream: suite.portal.upstream });
  });
  afterAll(async () => {
    await empty?.close();
  });

  it('scrolls no page sideways, squeezes no text, keeps one h1 and says something in main', async () => {
    const faults: string[] = [];
    for (const width of [390, 1296]) {
      const { page } = await watchedPage(suite.browser, { viewport: { width, height: 900 }, userAgent: DESKTOP_UA });
      try {
        for (const pagePath of pages) {
          await gotoHydrated(page, `${empty.url}${pagePath}`);
          const where = `${pagePath} at ${width}px`;
          const layout = await layoutFaults(page);
          if (layout.scrollWidth > layout.innerWidth) faults.push(`${where}: ${layout.scrollWidth} > ${layout.innerWidth}`);
          faults.push(...layout.squeezed.map((text) => `${where}: ${text}`));
          const h1s = await visibleH1s(page);
          if (h1s.length !== 1) faults.push(`${where}: ${h1s.length} h1 ${JSON.stringify(h1s)}`);
          // An empty list is said, not left as a blank column: main holds more text than its heading.
          const said = await page
            .locator('main')
            .evaluate((main) => (main.textContent ?? '').replace(/\s+/g, '').length - (main.querySelector('h1')?.textContent ?? '').replace(/\s+/g, '').length);
          if (said < 4) faults.push(`${where}: main says nothing beyond its heading`);
          if (width < 768) faults.push(...(await smallTargets(page, MIN_TARGET_PX)).map((target) => `${where}: ${target}`));
          await screenshotTop(page, path.join(SCREENSHOTS, `empty${pagePath.replace(/[^a-zA-Z0-9]+/g, '_')}-${width}.png`));
        }
      } finally {
        await page.context().close();
      }
    }
    expect(faults).toEqual([]);
  }, 900_000);
});
