/**
 * Issue 29, item 1: in a narrow window the float menu no longer keeps a column of its own beside the article.
 * Under 768px it is a bar along the bottom of the screen: the article takes the width, every tool is a 44px tap
 * target and none is cut off at 360 or 390px, the bar keeps clear of a phone's home indicator (safe-area inset,
 * emulated), the page's end scrolls clear of the bar, and back-to-top sits above it. At 1296px it is the column.
 */
import type { Page } from 'playwright-core';
import { browserPortalSuite, gotoHydrated, scrollAndSettle, watchedPage } from '../support/browser';
import { firstLink } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

/** A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not. */
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HOME_INDICATOR_PX = 34;

interface BarLayout {
  bar: { top: number; bottom: number; left: number; right: number; paddingBottom: string; position: string };
  clipped: boolean;
  innerWidth: number;
  innerHeight: number;
  articleWidth: number;
  /** Tools smaller than 44px either way, or reaching into the safe area. */
  faults: string[];
}

function barLayout(page: Page, safeBottom: number): Promise<BarLayout> {
  return page.evaluate((inset) => {
    const bar = document.querySelector<HTMLElement>('.float-menu')!;
    const box = bar.getBoundingClientRect();
    const faults: string[] = [];
    for (const tool of bar.querySelectorAll<HTMLElement>('.float-menu__item, .float-menu__item input')) {
      if (!tool.checkVisibility()) continue;
      const rect = tool.getBoundingClientRect();
      const name = (tool.textContent ?? '').trim() || tool.getAttribute('aria-label') || tool.tagName;
      if (rect.width < 44 || rect.height < 44) faults.push(`${name} ${Math.round(rect.width)}×${Math.round(rect.height)}`);
      if (rect.bottom > window.innerHeight - inset + 0.5) faults.push(`${name} reaches into the safe area (bottom ${rect.bottom})`);
    }
    return {
      bar: {
        top: box.top,
        bottom: box.bottom,
        left: box.left,
        right: box.right,
        paddingBottom: getComputedStyle(bar).paddingBottom,
        position: getComputedStyle(bar).position,
      },
      clipped: bar.scrollWidth > bar.clientWidth,
      innerWidth: window.innerWidth,
      innerHeight: window.innerHeight,
      articleWidth: document.querySelector('.article__body')!.getBoundingClientRect().width,
      faults,
    };
  }, safeBottom);
}

/** Scrolled to the end: the lowest bottom of anything in the page's flow (fixed chrome aside), and back-to-top's. */
async function pageEnd(page: Page): Promise<{ contentBottom: number; backToTopBottom: number | null }> {
  // Blocks laid out only near the viewport (content-visibility) take their real height as the end comes near,
  // so the end moves: scrolled again until it stays.
  for (let previous = -1; ;) {
    const end = await page.evaluate(() => document.scrollingElement!.scrollHeight - window.innerHeight);
    if (end === previous) break;
    await scrollAndSettle(page, end);
    previous = end;
  }
  await page.locator('.back-to-top').waitFor();
  return page.evaluate(() => {
    let contentBottom = 0;
    for (const element of document.body.querySelectorAll<HTMLElement>('#main *, footer *')) {
      if (element.closest('.float-menu') || !element.checkVisibility()) continue;
      const rect = element.getBoundingClientRect();
      if (rect.height > 0) contentBottom = Math.max(contentBottom, rect.bottom);
    }
    return { contentBottom, backToTopBottom: document.querySelector('.back-to-top')?.getBoundingClientRect().bottom ?? null };
  });
}

describeWithBrowser()('the float menu on a phone', () => {
  const suite = browserPortalSuite();

  async function articlePages(): Promise<string[]> {
    const detail = await firstLink(suite.portal.url, '/', /^\/detail\/\d+\/\d+$/);
    return [detail, detail.replace('/detail/', '/detailReading/')];
  }

  it('is a bar along the bottom at 360 and 390px: the article takes the width, no tool cut off or under 44px', async () => {
    for (const width of [360, 390]) {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 844 }, userAgent: DESKTOP_UA });
      try {
        for (const path of await articlePages()) {
          await gotoHydrated(page, `${suite.portal.url}${path}`);
          const layout = await barLayout(page, 0);
          const where = `${path} at ${width}px`;
          expect({ where, position: layout.bar.position, bottom: layout.bar.bottom, left: layout.bar.left, right: layout.bar.right }).toEqual({
            where,
            position: 'fixed',
            bottom: layout.innerHeight,
            left: 0,
            right: layout.innerWidth,
          });
          expect({ where, clipped: layout.clipped, faults: layout.faults }).toEqual({ where, clipped: false, faults: [] });
          // The frame's padding aside, the article has the screen's width: no column beside it.
          expect({ where, articleFills: layout.articleWidth >= width - 40 }).toEqual({ where, articleFills: true });

          const end = await pageEnd(page);
          const barTop = (await barLayout(page, 0)).bar.top;
          expect({ where, contentClear: end.contentBottom <= barTop + 0.5, backToTopClear: (end.backToTopBottom ?? Infinity) <= barTop }).toEqual({
            where,
            contentClear: true,
            backToTopClear: true,
          });
        }
        // The tools still work from the bar: night mode on and off.
        await page.locator('.float-menu__night').click();
        await page.waitForFunction(() => document.querySelector('.float-menu__night')?.getAttribute('aria-pressed') === 'true');
        await page.locator('.float-menu__night').click();
        await page.waitForFunction(() => document.querySelector('.float-menu__night')?.getAttribute('aria-pressed') === 'false');
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
  });

  it('keeps its tools and the page end clear of a phone’s home indicator (safe-area inset)', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 390, height: 844 }, userAgent: DESKTOP_UA });
    try {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: { top: 47, bottom: HOME_INDICATOR_PX, left: 0, right: 0 } });
      const [detail] = await articlePages();
      await gotoHydrated(page, `${suite.portal.url}${detail}`);
      const layout = await barLayout(page, HOME_INDICATOR_PX);
      expect({ paddingBottom: layout.bar.paddingBottom, bottom: layout.bar.bottom, faults: layout.faults }).toEqual({
        paddingBottom: `${HOME_INDICATOR_PX}px`,
        bottom: layout.innerHeight,
        faults: [],
      });
      const end = await pageEnd(page);
      const toolsTop = (await barLayout(page, HOME_INDICATOR_PX)).bar.top;
      expect({ contentClear: end.contentBottom <= toolsTop + 0.5, backToTopClear: (end.backToTopBottom ?? Infinity) <= toolsTop }).toEqual({
        contentClear: true,
        backToTopClear: true,
      });
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('is the column beside the article from 768px up', async () => {
    for (const width of [768, 1296]) {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 }, userAgent: DESKTOP_UA });
      try {
        const [detail] = await articlePages();
        await gotoHydrated(page, `${suite.portal.url}${detail}`);
        const layout = await barLayout(page, 0);
        const article = await page.locator('.article__body').boundingBox();
        // A column: narrow, tall, left of the article, in the flow until the reader scrolls.
        expect({
          width,
          position: layout.bar.position,
          besideArticle: layout.bar.right <= article!.x,
          narrow: layout.bar.right - layout.bar.left <= 64,
        }).toEqual({
          width,
          position: 'static',
          besideArticle: true,
          narrow: true,
        });
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
  });
});
