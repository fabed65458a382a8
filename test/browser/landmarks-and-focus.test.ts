/**
 * Issue 29, item 2, in Chromium's own accessibility tree (CDP `Accessibility.getFullAXTree`, what assistive
 * technology is given) after hydration, at 390 and 1296 px, one visit per page and width:
 * - every page kind: one banner, main and contentinfo, every other landmark named once, every heading in the tree
 *   (a block skipped by `content-visibility: auto` would drop out of it);
 * - Tab through the eight pages a phone reader meets, opening every popup with Enter and closing it with Escape:
 *   focus never on an element a reader cannot see (hostile-content.test.ts walks every kind over hostile content).
 */
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { treeProblems, walkPage } from '../support/focus-walk';
import { pagesOfEveryKind, phoneReaderPages } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

const WIDTHS = [390, 1296] as const;

describeWithBrowser()('landmarks and focus, in the browser', () => {
  const suite = browserPortalSuite();
  let walkPaths: string[] = [];
  /** What each test below asserts, found in one pass: console problems by the test whose page visit met them. */
  const found = {
    tree: [] as string[],
    treeConsole: [] as string[],
    walks: [] as Array<{ path: string; width: number; longWalk: boolean; triggers: boolean }>,
    walkProblems: [] as string[],
    walkConsole: [] as string[],
  };

  beforeAll(async () => {
    // With the empty search page: its own search form beside the header's.
    const treePaths = [...(await pagesOfEveryKind(suite.portal.url)), '/search'];
    walkPaths = Object.values(await phoneReaderPages(suite.portal.url));
    for (const width of WIDTHS) {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 844 } });
      /** Console problems met while `step` ran, added to `into`. */
      const watching = async (into: string[], step: () => Promise<void>) => {
        const before = problems.length;
        await step();
        into.push(...problems.slice(before).map((problem) => `${width}: ${problem}`));
      };
      const walk = async (path: string) => {
        const result = await walkPage(page);
        found.walks.push({ path, width, longWalk: result.stops > 10, triggers: result.triggers > 0 });
        found.walkProblems.push(...result.problems.map((problem) => `${width} ${path}: ${problem}`));
      };
      try {
        const cdp = await page.context().newCDPSession(page);
        for (const path of treePaths) {
          await watching(found.treeConsole, async () => {
            await gotoHydrated(page, `${suite.portal.url}${path}`);
            await page.waitForLoadState('networkidle');
            found.tree.push(...(await treeProblems(page, cdp)).map((problem) => `${width} ${path}: ${problem}`));
          });
          if (walkPaths.includes(path)) await watching(found.walkConsole, () => walk(path));
        }
        // The walk's pages the tree pass has not loaded (reading mode).
        for (const path of walkPaths.filter((path) => !treePaths.includes(path))) {
          await watching(found.walkConsole, async () => {
            await gotoHydrated(page, `${suite.portal.url}${path}`);
            await walk(path);
          });
        }
      } finally {
        await page.context().close();
      }
    }
  }, 900_000);

  it('every page kind at 390 and 1296 px: one banner, main and contentinfo, the other landmarks named once, every heading in the accessibility tree', () => {
    expect(found.treeConsole).toEqual([]);
    expect(found.tree).toEqual([]);
  });

  it('Tab through the eight pages a phone reader meets, opening and closing every popup with the keyboard: focus is never on a hidden element', () => {
    // Every page walked once, and each walk went round the page and met popups on the way (the header's at
    // least), so it checked something.
    const order = (a: { path: string; width: number }, b: { path: string; width: number }) => a.width - b.width || a.path.localeCompare(b.path);
    const expected = WIDTHS.flatMap((width) => walkPaths.map((path) => ({ path, width, longWalk: true, triggers: true })));
    expect(walkPaths).toHaveLength(8);
    expect([...found.walks].sort(order)).toEqual(expected.sort(order));
    expect(found.walkConsole).toEqual([]);
    expect(found.walkProblems).toEqual([]);
  });
});
