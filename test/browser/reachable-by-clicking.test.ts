/**
 * Issue 38, item 1: every kind of page is reachable from home within three clicks, in a real browser. From home
 * (click 0), breadth first, the suite follows only what a reader can click on the rendered, hydrated page: the
 * same-origin `<a href>` of the DOM (none inside `hidden` or `inert` content), and the header's search box, typed
 * into and sent with Enter, the one way to results the spec gives (no page links a search). Every kind of the
 * route table must be reached (pageKindOf: one per route, a menu's prefix and second paths folded, a live in each of
 * its three states), and a failure names the kinds left out. The click trail to each kind is written to
 * test-results/reachable-by-clicking/ for a person to follow. test/server/reachable.test.ts walks the
 * served HTML of a main and a regional site the same way, without a browser.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { encodeKeyword } from '../../shared/search-keyword';
import { REGIONAL_SITES } from '../../shared/sites';
import { browserPortalSuite, gotoHydrated, launchBrowser, watchedPage } from '../support/browser';
import { everyPageKind, liveStatesById, pageKindOf, type LiveState } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

const CLICKS = 3;
/** Pages opened per kind at each click: enough to see what a kind links to, few enough to stay quick. */
const PER_KIND_AND_CLICK = 2;
const SEARCH_WORD = '青年';
const RESULTS = path.join(__dirname, '..', '..', 'test-results', 'reachable-by-clicking');
const REGIONAL = REGIONAL_SITES[0]!;

/** A page reached, with the clicks that reached it from home (each the path it opened, or the search it sent). */
interface Reached {
  path: string;
  trail: string[];
}

/** The same-origin links a reader can click on the page, as paths with their query (a hash opens the same page). */
function clickableLinks(page: Page, origin: string): Promise<string[]> {
  return page.$$eval(
    'a[href]',
    (anchors, own) =>
      anchors.flatMap((anchor) => {
        if (!(anchor instanceof HTMLAnchorElement) || anchor.closest('[hidden], [inert]')) return [];
        const url = new URL(anchor.href);
        return url.origin === own ? [url.pathname + url.search] : [];
      }),
    origin,
  );
}

/** Home's search box, as a reader uses it: open it, type, Enter. Returns the results page's path. */
async function searchFromHeader(page: Page): Promise<string> {
  await page.click('.site-header .search__submit');
  await page.fill('.site-header .search__input', SEARCH_WORD);
  await page.press('.site-header .search__input', 'Enter');
  await page.waitForURL(`**/search/${encodeKeyword(SEARCH_WORD)}/*`);
  await page.waitForSelector('html[data-hydrated="true"]');
  const url = new URL(page.url());
  return url.pathname + url.search;
}

interface Walk {
  /** Each kind reached, with the first page of it and its trail. */
  kinds: Map<string, Reached>;
  /** Pages opened, for the record. */
  opened: number;
}

/** Opens `from` and returns what a reader can go on to from it: its links, and on home the search box's results. */
async function nextSteps(page: Page, origin: string, from: Reached): Promise<Reached[]> {
  await gotoHydrated(page, `${origin}${from.path}`);
  const steps = (await clickableLinks(page, origin)).map((link) => ({ path: link, trail: [...from.trail, link] }));
  if (from.trail.length === 0) {
    const results = await searchFromHeader(page);
    steps.push({ path: results, trail: [`search box: ${SEARCH_WORD} ⏎ → ${results}`] });
  }
  return steps;
}

/** Breadth first from home, up to CLICKS clicks, stopping once every kind is reached. */
async function walkFromHome(page: Page, origin: string, liveStates: ReadonlyMap<number, LiveState>, wanted: readonly string[]): Promise<Walk> {
  const kinds = new Map<string, Reached>([['home', { path: '/', trail: [] }]]);
  const seen = new Set<string>(['/']);
  let frontier: Reached[] = [{ path: '/', trail: [] }];
  let opened = 0;
  for (let click = 1; click <= CLICKS && wanted.some((kind) => !kinds.has(kind)); click += 1) {
    const next: Reached[] = [];
    const openedPerKind = new Map<string, number>();
    for (const from of frontier) {
      const kind = pageKindOf(from.path, liveStates) ?? from.path;
      if ((openedPerKind.get(kind) ?? 0) >= PER_KIND_AND_CLICK) continue;
      openedPerKind.set(kind, (openedPerKind.get(kind) ?? 0) + 1);
      opened += 1;
      for (const step of await nextSteps(page, origin, from)) {
        if (seen.has(step.path)) continue;
        seen.add(step.path);
        const reachedKind = pageKindOf(step.path, liveStates);
        if (reachedKind === null) continue;
        if (!kinds.has(reachedKind)) kinds.set(reachedKind, step);
        next.push(step);
      }
    }
    frontier = next;
  }
  return { kinds, opened };
}

/** The click trail to each kind, for a person to follow: test-results/reachable-by-clicking/{site}.json. */
function writeTrails(label: string, opened: number, kinds: ReadonlyMap<string, Reached>): void {
  mkdirSync(RESULTS, { recursive: true });
  const trails = Object.fromEntries([...kinds].sort(([a], [b]) => a.localeCompare(b)).map(([kind, reached]) => [kind, reached.trail]));
  writeFileSync(path.join(RESULTS, `${label.replace(/\W+/g, '-').replace(/^-|-$/g, '')}.json`), `${JSON.stringify({ opened, trails }, null, 2)}\n`);
}

describeWithBrowser()('every page kind within three clicks of home, in a browser', () => {
  const suite = browserPortalSuite();

  it.each([
    ['the main site', ''],
    ['a regional site', REGIONAL.domain],
  ])(
    'on %s, reaches every kind of the route table, each live state included, by links and the search box',
    async (label, domain) => {
      // A regional site is reached by its own domain, resolved to loopback inside its own browser only. Sites are
      // served over https in production; this plain-http origin is marked secure so the browser treats it so.
      const origin = domain ? `http://${domain}:${new URL(suite.portal.url).port}` : suite.portal.url;
      const browser = domain
        ? await launchBrowser([`--host-resolver-rules=MAP ${domain} 127.0.0.1`, `--unsafely-treat-insecure-origin-as-secure=${origin}`])
        : suite.browser;
      const wanted = everyPageKind();
      const liveStates = await liveStatesById(suite.portal.upstream.url);
      const { page, problems } = await watchedPage(browser, { viewport: { width: 1296, height: 900 } });
      try {
        const { kinds, opened } = await walkFromHome(page, origin, liveStates, wanted);
        writeTrails(label, opened, kinds);
        expect({ unreachable: wanted.filter((kind) => !kinds.has(kind)) }).toEqual({ unreachable: [] });
        // Every trail is within the bound, and the page it ends on answers (a link to a 404 is no way in).
        for (const [kind, reached] of kinds) {
          expect({ kind, clicks: reached.trail.length <= CLICKS }).toEqual({ kind, clicks: true });
          // Asked by the page itself: the regional domain resolves to loopback in the browser only.
          const status = await page.evaluate(async (target) => (await fetch(target)).status, reached.path);
          expect({ kind, path: reached.path, status }).toEqual({ kind, path: reached.path, status: 200 });
        }
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
        if (browser !== suite.browser) await browser.close();
      }
    },
    300_000,
  );
});
