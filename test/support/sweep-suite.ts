/**
 * The page sweep as jest tests: one portal and one browser, every check of sweep-checks.ts over one visit per page
 * and width (sweep.ts), each check's findings asserted by its own `it`, and axe by night on pages of its own (the
 * theme is read from storage as the page starts, so night needs visits of its own). Two suite files split the
 * widths between jest's two workers (sweep-phone.test.ts, sweep-wide.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { THEME_KEY } from '../../shared/preferences';
import { seriousAxeViolations } from './axe';
import { browserPortalSuite, gotoHydrated, networkSettled, watchedPage } from './browser';
import { pageIdsMissing } from './page-kinds';
import { describeWithBrowser } from './requirements';
import { expectedVisits, sweep, viewportHeight, type Findings, type SweepCheck, type SweepTimes } from './sweep';
import { axeDayCheck, layoutCheck, skipLinkCheck, sweepPages, tapTargetCheck, treeCheck, walkCheck, type SweepPages, type WalkRecord } from './sweep-checks';

const RESULTS = path.join(__dirname, '..', '..', 'test-results', 'sweep');

/** Declares the sweep's tests for the checks' widths among `widths`. */
export function describeSweep(widths: readonly number[]): void {
  describeWithBrowser()(`every page kind, one visit per page at ${widths.join(', ')} px`, () => {
    const suite = browserPortalSuite();
    let pages: SweepPages;
    let checks: Record<'layout' | 'skipLink' | 'tree' | 'walk' | 'axe' | 'tapTargets', SweepCheck>;
    const walks: WalkRecord[] = [];
    let found: Map<string, Findings>;

    beforeAll(async () => {
      pages = await sweepPages(suite.portal.url, suite.portal.upstream);
      // In the order their steps run within a stage: the Tab walk before 跳到正文 moves focus into main.
      checks = {
        layout: layoutCheck(pages.layout),
        tree: treeCheck(pages.tree),
        axe: axeDayCheck(pages.axe),
        walk: walkCheck(pages.walk, walks),
        skipLink: skipLinkCheck(pages.layout),
        tapTargets: tapTargetCheck(pages.tapTargets),
      };
      const times: SweepTimes = {};
      found = await sweep(suite.browser, suite.portal.url, Object.values(checks), widths, times);
      // Where the sweep's time went, for a person to read (not asserted: times depend on the machine's load).
      mkdirSync(RESULTS, { recursive: true });
      writeFileSync(path.join(RESULTS, `times-${widths.join('-')}.json`), `${JSON.stringify(times, null, 2)}\n`);
    }, 1_800_000);

    /** Every page of the check visited at each of its widths here, no console problem, no fault. */
    function expectClean(check: SweepCheck): void {
      const result = found.get(check.name)!;
      expect([...result.visited].sort()).toEqual(expectedVisits(check, widths).sort());
      expect(result.problems).toEqual([]);
      expect(result.faults).toEqual([]);
    }

    const at = (checkWidths: readonly number[]) => checkWidths.filter((width) => widths.includes(width));
    const layoutWidths = at([360, 390, 768, 1296, 1920]);
    const treeWidths = at([390, 1296]);
    const phoneWidths = at([360, 390]);

    if (layoutWidths.length > 0) {
      it(`scrolls no page sideways, squeezes no text to under two characters and breaks no word at ${layoutWidths.join(', ')} px; on a phone the headline starts in the screen's top 40%`, () => {
        expectClean(checks.layout);
      });

      it(`跳到正文 takes keyboard focus into <main> at ${layoutWidths.join(', ')} px`, () => {
        expectClean(checks.skipLink);
      });
    }

    if (treeWidths.length > 0) {
      it(`every page kind at ${treeWidths.join(' and ')} px: one banner, main and contentinfo, the other landmarks named once, every heading in the accessibility tree`, () => {
        expectClean(checks.tree);
      });

      it(`Tab through the eight pages a phone reader meets at ${treeWidths.join(' and ')} px, opening and closing every popup with the keyboard: focus is never on a hidden element`, () => {
        // Every page walked once, and each walk went round the page and met popups on the way (the header's at
        // least), so it checked something.
        const walkPaths = Object.values(pages.walk);
        const order = (a: WalkRecord, b: WalkRecord) => a.width - b.width || a.path.localeCompare(b.path);
        const expected = treeWidths.flatMap((width) => walkPaths.map((path) => ({ path, width, longWalk: true, triggers: true })));
        expect(walkPaths).toHaveLength(8);
        expect([...walks].sort(order)).toEqual(expected.sort(order));
        expectClean(checks.walk);
      });

      it(`axe-core finds no serious or critical violation by day at ${treeWidths.join(' and ')} px on the eight pages`, () => {
        expectClean(checks.axe);
      });

      for (const width of treeWidths) {
        it(`${width} px by night: no serious or critical violation on any of the eight pages`, async () => {
          expect(await nightScan(suite.browser, suite.portal.url, Object.values(pages.axe), width)).toEqual([]);
        }, 600_000);
      }
    }

    if (phoneWidths.length > 0) {
      it(`makes every link, button and field outside running text at least 44×44px at ${phoneWidths.join(' and ')} px on every page kind`, () => {
        expect(pageIdsMissing(Object.values(pages.tapTargets))).toEqual([]);
        expectClean(checks.tapTargets);
      });
    }
  });
}

/**
 * axe by night (夜间, the theme the head script reads from storage), each page after hydration with its blocks
 * settled; the findings and any console problem, each naming its page.
 */
async function nightScan(browser: Parameters<typeof watchedPage>[0], base: string, paths: readonly string[], width: number): Promise<string[]> {
  const { page, problems } = await watchedPage(browser, { viewport: { width, height: viewportHeight(width) } });
  try {
    await page.addInitScript((key) => localStorage.setItem(key, 'dark'), THEME_KEY);
    const report: string[] = [];
    for (const path of paths) {
      await gotoHydrated(page, `${base}${path}`);
      await networkSettled(page);
      if (!(await page.evaluate(() => document.documentElement.classList.contains('theme-dark')))) report.push(`${width} ${path}: not dark by night`);
      report.push(...(await seriousAxeViolations(page)).map((line) => `${width} night ${path}: ${line}`));
    }
    return [...report, ...problems.map((problem) => `${width} night: ${problem}`)];
  } finally {
    await page.context().close();
  }
}
