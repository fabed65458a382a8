/**
 * The checks of the page sweeps (sweep.ts), each what a suite of its own used to load its pages for:
 * - layout (issue 29, item 1; issue 51, item 3): from 360 to 1920 px no page scrolls sideways, no text box is
 *   narrower than two of its characters, no word a reader reads as one is broken over two lines, on a phone the
 *   headline starts in the screen's top 40%; a screenshot of each page at each width for a person to look at;
 * - skip link (issue 51, item 3): 跳到正文 takes keyboard focus into <main>;
 * - tree (issue 29, item 2): in Chromium's accessibility tree one banner, main and contentinfo, every other
 *   landmark named once, every heading in the tree (a block skipped by `content-visibility: auto` would drop out);
 * - walk: Tab through the page opening every popup with Enter and closing it with Escape, focus never on an
 *   element a reader cannot see;
 * - axe (by day; axe-night.test.ts by night): no serious or critical axe-core violation;
 * - tap targets (issue 29, item 1; issue 38, item 4): below 768 px every link, button, field and summary outside
 *   running text is at least 44×44 CSS px, the menu opened by its 菜单 button so its entries count too.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { encodeKeyword } from '../../shared/search-keyword';
import { seriousAxeViolations } from './axe';
import { scrollAndSettle, screenshotTop } from './browser';
import { skipLinkProblems, treeProblems, walkPage } from './focus-walk';
import { layoutFaults, MIN_TARGET_PX, smallTargets } from './layout';
import { firstLink, pagesOfEveryKind, pagesOfEveryRoute, phoneReaderPages } from './page-kinds';
import type { ReferenceServer } from './portal';
import type { SweepCheck, Visit } from './sweep';

export const ALL_WIDTHS = [360, 390, 768, 1296, 1920] as const;
const PHONE_WIDTHS = [360, 390] as const;
const TREE_WIDTHS = [390, 1296] as const;
const PHONE_BELOW = 768;
/** On a phone the headline starts in this top share of the screen, under the header and any cover picture. */
const HEADLINE_WITHIN = 0.4;
const RESULTS = path.join(__dirname, '..', '..', 'test-results');

/** How a finding names its page: the check's kinds for it, its path and the width. */
function where(visit: Visit): string {
  const named = visit.kinds.filter((kind) => kind !== visit.path);
  return `${named.length > 0 ? `${named.join('/')} ` : ''}${visit.path} at ${visit.width}px`;
}

/** Screenshots named by the first kind, as the layout suite always named them. */
function screenshotName(visit: Visit): string {
  return `${visit.kinds[0]}-${visit.width}.png`;
}

export function layoutCheck(pages: Record<string, string>): SweepCheck {
  const screenshots = path.join(RESULTS, 'every-width');
  mkdirSync(screenshots, { recursive: true });
  return {
    name: 'layout',
    stage: 'read',
    widths: ALL_WIDTHS,
    pages,
    async run(visit) {
      const found = await layoutFaults(visit.page);
      const at = where(visit);
      const faults: string[] = [];
      if (found.scrollWidth > found.innerWidth) faults.push(`${at} scrolls sideways: ${found.scrollWidth} > ${found.innerWidth}`);
      for (const text of found.squeezed) faults.push(`${at}: ${text}`);
      for (const word of found.broken) faults.push(`${at}, broken: ${word}`);
      const screen = visit.page.viewportSize()!.height;
      if (visit.width < PHONE_BELOW && found.headlineTop !== null && found.headlineTop > HEADLINE_WITHIN * screen) {
        faults.push(`${at}: headline at ${Math.round(found.headlineTop)}px, under ${HEADLINE_WITHIN * 100}% of ${screen}px`);
      }
      await screenshotTop(visit.page, path.join(screenshots, screenshotName(visit)));
      return faults;
    },
  };
}

export function skipLinkCheck(pages: Record<string, string>): SweepCheck {
  return {
    name: 'skip link',
    stage: 'keyboard',
    widths: ALL_WIDTHS,
    pages,
    async run(visit) {
      return (await skipLinkProblems(visit.page)).map((problem) => `${where(visit)}: ${problem}`);
    },
  };
}

export function treeCheck(pages: Record<string, string>): SweepCheck {
  return {
    name: 'tree',
    stage: 'read',
    widths: TREE_WIDTHS,
    pages,
    settled: true,
    async run(visit) {
      return (await treeProblems(visit.page, visit.cdp)).map((problem) => `${where(visit)}: ${problem}`);
    },
  };
}

/** Each walk's outcome, for the suite to see every page was walked and the walk met something to check. */
export interface WalkRecord {
  path: string;
  width: number;
  longWalk: boolean;
  triggers: boolean;
}

export function walkCheck(pages: Record<string, string>, walks: WalkRecord[]): SweepCheck {
  return {
    name: 'walk',
    // Before 跳到正文 (which moves focus into main): the walk starts where a fresh page's focus does.
    stage: 'keyboard',
    widths: TREE_WIDTHS,
    pages,
    async run(visit) {
      const result = await walkPage(visit.page);
      walks.push({ path: visit.path, width: visit.width, longWalk: result.stops > 10, triggers: result.triggers > 0 });
      return result.problems.map((problem) => `${where(visit)}: ${problem}`);
    },
  };
}

export function axeDayCheck(pages: Record<string, string>): SweepCheck {
  return {
    name: 'axe',
    stage: 'read',
    widths: TREE_WIDTHS,
    pages,
    settled: true,
    async run(visit) {
      const dark = await visit.page.evaluate(() => document.documentElement.classList.contains('theme-dark'));
      const faults = dark ? [`${where(visit)}: dark by day`] : [];
      return [...faults, ...(await seriousAxeViolations(visit.page)).map((line) => `${where(visit)} by day: ${line}`)];
    },
  };
}

export function tapTargetCheck(pages: Record<string, string>): SweepCheck {
  const screenshots = path.join(RESULTS, 'tap-targets');
  return {
    name: 'tap targets',
    stage: 'menu',
    widths: PHONE_WIDTHS,
    pages,
    async run(visit) {
      const { page } = visit;
      // Measured from the top, as a reader arriving sees the page (the keyboard checks may have scrolled it).
      await scrollAndSettle(page, 0);
      // The menu behind its button is part of the page a reader taps through (reading mode has no header).
      const toggle = page.locator('button.menu-toggle');
      if ((await toggle.count()) > 0) {
        if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
        await page.waitForFunction(() => document.querySelector('.menu-toggle')?.getAttribute('aria-expanded') === 'true');
      }
      const faults = await smallTargets(page, MIN_TARGET_PX);
      if (faults.length === 0) return [];
      mkdirSync(screenshots, { recursive: true });
      await screenshotTop(page, path.join(screenshots, `${where(visit).replace(/[^a-zA-Z0-9]+/g, '_')}.png`));
      return faults.map((fault) => `${where(visit)}: ${fault}`);
    },
  };
}

/** The pages each check reads, found on the portal (real links of the reference dataset) before the sweep. */
export interface SweepPages {
  layout: Record<string, string>;
  tree: Record<string, string>;
  walk: Record<string, string>;
  axe: Record<string, string>;
  tapTargets: Record<string, string>;
}

export async function sweepPages(base: string, upstream: ReferenceServer): Promise<SweepPages> {
  const phone = await phoneReaderPages(base);
  const article = await firstLink(base, '/', /^\/detail\/\d+\/\d+$/);
  const byPath = (paths: readonly string[]) => Object.fromEntries(paths.map((pagePath) => [pagePath, pagePath]));
  return {
    // The pages a phone reader meets, and those with a cover or a dated title (a topic, a news track, an e-paper page).
    layout: {
      ...phone,
      topic: await firstLink(base, '/', /^\/topicDetail\/\d+$/),
      track: await firstLink(base, '/', /^\/newsTrack\/\d+$/),
      paper: await firstLink(base, '/electronic', /^\/readNewspapers\/\d+/),
    },
    // Every page kind, with the empty search page: its own search form beside the header's.
    tree: byPath([...(await pagesOfEveryKind(base)), '/search']),
    walk: phone,
    axe: {
      home: '/',
      detail: article,
      reading: article.replace('/detail/', '/detailReading/'),
      list: await firstLink(base, '/siteMap', /\/V1\/\d+$/),
      search: `/search/${encodeKeyword('青年')}`,
      video: await firstLink(base, '/shike/2839', /^\/video\/\d+\/\d+$/),
      live: await firstLink(base, '/', /^\/liveStreamDetail\/\d+$/),
      personal: '/personalCenter',
    },
    tapTargets: {
      ...(await pagesOfEveryRoute(base, upstream.url)),
      // The pages issue 38 found faults on (the reference dataset is a function of its seed): a topic whose
      // cards are text cards of one line (27px), a track whose timeline titles fit one line (24px).
      reportedTopic: '/topicDetail/101',
      reportedTrack: '/newsTrack/207',
    },
  };
}
