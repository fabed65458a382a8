/**
 * Issue 29, item 2, as a screen reader and a keyboard reader meet the page after hydration, in Chromium's own
 * accessibility tree (CDP `Accessibility.getFullAXTree`, what assistive technology is given; axe reads the DOM):
 *
 * - every page kind at 390 and 1296 px: one banner, one main, one contentinfo; every other landmark named, and no
 *   two landmarks of one role share a name; every heading of the page is in the tree (a block the browser skips
 *   rendering, `content-visibility: auto`, drops out of it, its heading and its region's name with it);
 * - Tab through the whole of home, an article, reading mode, a list, search, the video hub, a live and the
 *   personal center at both widths, opening every popup and menu on the way with Enter and closing it with
 *   Escape: focus is never on an element a reader cannot see (no box, display:none, visibility:hidden,
 *   aria-hidden, or a part of a carousel swiped away).
 */
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { treeProblems, walkPage } from '../support/focus-walk';
import { pagesOfEveryKind, phoneReaderPages } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

const WIDTHS = [390, 1296] as const;

describeWithBrowser()('landmarks and focus, in the browser', () => {
  const suite = browserPortalSuite();

  it('every page kind at 390 and 1296 px: one banner, main and contentinfo, the other landmarks named once, every heading in the accessibility tree', async () => {
    // With the empty search page: its own search form beside the header's.
    const paths = [...(await pagesOfEveryKind(suite.portal.url)), '/search'];
    const report: string[] = [];
    for (const width of WIDTHS) {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 844 } });
      const cdp = await page.context().newCDPSession(page);
      for (const path of paths) {
        await gotoHydrated(page, `${suite.portal.url}${path}`);
        await page.waitForLoadState('networkidle');
        report.push(...(await treeProblems(page, cdp)).map((problem) => `${width} ${path}: ${problem}`));
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }
    expect(report).toEqual([]);
  }, 600_000);

  it('Tab through the eight pages a phone reader meets, opening and closing every popup with the keyboard: focus is never on a hidden element', async () => {
    const paths = Object.values(await phoneReaderPages(suite.portal.url));
    const report: string[] = [];
    for (const width of WIDTHS) {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 844 } });
      for (const path of paths) {
        await gotoHydrated(page, `${suite.portal.url}${path}`);
        const walk = await walkPage(page);
        // The walk went round the page and met popups on the way (the header's at least), so it checked something.
        expect({ path, width, longWalk: walk.stops > 10, triggers: walk.triggers > 0 }).toEqual({ path, width, longWalk: true, triggers: true });
        report.push(...walk.problems.map((problem) => `${width} ${path}: ${problem}`));
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }
    expect(report).toEqual([]);
  }, 600_000);
});
