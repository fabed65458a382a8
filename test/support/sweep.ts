/**
 * One visit per page and width, shared by the checks of the page sweeps (test/browser/sweep-*.test.ts,
 * docs/decisions/0165-one-visit-per-page-and-width.md): each check names the pages it wants at which widths, the
 * sweep loads each distinct page once per width (one browser context per width) and runs on it every check that
 * wants it, in stage order, so that no check meets a page another has changed under it:
 * - 'read' checks leave the page as they found it (measuring, the accessibility tree, axe, a screenshot);
 * - 'keyboard' checks move focus and open and close popups (the Tab walk, then 跳到正文);
 * - 'menu' checks scroll back to the top and open the menu behind its button, which stays open.
 * Console problems are filed by the check that was running when they came; those of the load go to every check on
 * the visit. Each check's findings are asserted by its own `it`s.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import { gotoHydrated, networkSettled, watchedPage } from './browser';

/** A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not. */
export const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A phone's screen below 768 px (an iPhone's 390×844), a desktop window's above. */
export function viewportHeight(width: number): number {
  return width < 768 ? 844 : 900;
}

export type Stage = 'read' | 'keyboard' | 'menu';
const STAGES: readonly Stage[] = ['read', 'keyboard', 'menu'];

export interface Visit {
  page: Page;
  cdp: CDPSession;
  path: string;
  width: number;
  /** This check's names for the page (two of its kinds may be one path). */
  kinds: readonly string[];
}

export interface SweepCheck {
  name: string;
  stage: Stage;
  widths: readonly number[];
  /** The pages it checks, by kind. */
  pages: Readonly<Record<string, string>>;
  /** Wants the network quiet first (a page's lazy blocks fetched and drawn); the visit then waits for it. */
  settled?: boolean;
  /** Faults found on the visit, each naming its page and width. */
  run(visit: Visit): Promise<string[]>;
}

/** Seconds spent loading pages and in each check's steps, for a person looking for the sweep's slow part. */
export type SweepTimes = Record<string, number>;

export interface Findings {
  faults: string[];
  /** Console errors and warnings and failed requests met while the check ran, or while its pages loaded. */
  problems: string[];
  /** `kind@width` for every page the check ran on, in the order it did. */
  visited: string[];
}

/** The path a reader is shown the 404 page on: its own document's failed load is the one expected. */
const NOT_FOUND = /^\/no-such-page/;

/** Each distinct path wanted at `width`, with the checks (and their kinds for it) that want it, in first-asked order. */
function visitsAt(width: number, checks: readonly SweepCheck[]): Map<string, Map<SweepCheck, string[]>> {
  const visits = new Map<string, Map<SweepCheck, string[]>>();
  for (const check of checks) {
    if (!check.widths.includes(width)) continue;
    for (const [kind, path] of Object.entries(check.pages)) {
      const byCheck = visits.get(path) ?? new Map<SweepCheck, string[]>();
      visits.set(path, byCheck);
      byCheck.set(check, [...(byCheck.get(check) ?? []), kind]);
    }
  }
  return visits;
}

/**
 * Loads each page the checks want once per width (widths taken from `widths`) and runs their steps on it.
 * Returns every check's findings by its name.
 */
export async function sweep(
  browser: Browser,
  base: string,
  checks: readonly SweepCheck[],
  widths: readonly number[],
  times: SweepTimes = {},
): Promise<Map<string, Findings>> {
  const findings = new Map(checks.map((check) => [check.name, { faults: [], problems: [], visited: [] } as Findings]));
  const timed = async <T>(what: string, step: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await step();
    } finally {
      times[what] = (times[what] ?? 0) + (performance.now() - started) / 1000;
    }
  };
  for (const width of widths) {
    const visits = visitsAt(width, checks);
    if (visits.size === 0) continue;
    const { page, problems } = await watchedPage(browser, { viewport: { width, height: viewportHeight(width) }, userAgent: DESKTOP_UA });
    try {
      const cdp = await page.context().newCDPSession(page);
      for (const [path, byCheck] of visits) {
        const loadStart = problems.length;
        await timed('load', () => gotoHydrated(page, `${base}${path}`));
        if ([...byCheck.keys()].some((check) => check.settled)) await timed('network quiet', () => networkSettled(page));
        // The 404 page's own document is the one failed load expected (reported twice: response and console).
        if (NOT_FOUND.test(path)) problems.splice(loadStart, 2, ...problems.slice(loadStart, loadStart + 2).filter((problem) => !/404/.test(problem)));
        const loadProblems = problems.slice(loadStart).map((problem) => `${width} ${path} (load): ${problem}`);
        // Stage by stage, and within a stage in the order the checks are given (the Tab walk before 跳到正文).
        for (const stage of STAGES) {
          for (const check of checks) {
            const kinds = byCheck.get(check);
            if (check.stage !== stage || !kinds) continue;
            const found = findings.get(check.name)!;
            const before = problems.length;
            found.faults.push(...(await timed(check.name, () => check.run({ page, cdp, path, width, kinds }))));
            found.problems.push(...loadProblems, ...problems.slice(before).map((problem) => `${width} ${path}: ${problem}`));
            found.visited.push(...kinds.map((kind) => `${kind}@${width}`));
          }
        }
      }
    } finally {
      await page.context().close();
    }
  }
  return findings;
}

/** What `check` should have visited at `widths`: each of its kinds at each of its widths, in sweep order. */
export function expectedVisits(check: SweepCheck, widths: readonly number[]): string[] {
  return widths.filter((width) => check.widths.includes(width)).flatMap((width) => Object.keys(check.pages).map((kind) => `${kind}@${width}`));
}
