/**
 * Issue 29, item 3: a reader without JavaScript never meets a dead control. With script off, every visible button
 * on home and an article page is clicked (the page loaded afresh for each): it submits its form (the page
 * navigates) or opens what it controls (more of the page becomes visible, as the top bar's QR panels do on focus).
 * Controls that need script (夜间, 字号, 点赞, 收藏, 微信, 换一换, 订阅) are absent, and appear once script runs.
 * 跳到正文 takes keyboard focus into <main> without script too (issue 51, item 3; with script: the page sweep,
 * test/support/sweep-checks.ts). Each page is loaded once per width for what it shows as it comes, and once more per
 * button clicked.
 */
import type { Browser, Page } from 'playwright-core';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { skipLinkProblems } from '../support/focus-walk';
import { firstLink, pagesOfEveryKind } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

/** A desktop user agent: a phone's is sent to the mobile site for an article. */
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SCRIPT_ONLY_LABELS = ['夜间', '字号', '点赞', '收藏', '微信', '换一换'];

/** Visible buttons; outside the header, top bar and footer when `chromeSeen` (they are the same on every page). */
function visibleButtons(page: Page, chromeSeen = false) {
  const buttons = page.locator('button:visible');
  return chromeSeen ? buttons.filter({ hasNot: page.locator('xpath=ancestor::*[self::header or self::footer or contains(@class, "top-bar")]') }) : buttons;
}

/**
 * Visible controls styled as links or buttons that do nothing without script by their markup: a link without an
 * address (or to '#' or 'javascript:'), an element given the role of a button or link, an inline handler.
 */
function deadByMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.body.querySelectorAll<HTMLElement>(
        'a:not([href]), a[href="#"], a[href^="javascript:"], [role="button"]:not(button), [role="link"]:not(a), [onclick]',
      ),
    ]
      .filter((element) => element.checkVisibility({ visibilityProperty: true }))
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').trim().slice(0, 12)}"`),
  );
}

function visibleElementCount(page: Page): Promise<number> {
  return page.evaluate(() => [...document.body.querySelectorAll('*')].filter((element) => element.checkVisibility({ visibilityProperty: true })).length);
}

/**
 * The page as a reader without script sees it: 'load', since with no script to wait for the document can be
 * parsed before the stylesheet has come, and an unstyled page shows what CSS hides (the phone menu's button).
 */
async function loadStyled(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
}

/** What clicking the `index`th visible button of `path` did, on a fresh load. */
async function clickOutcome(page: Page, url: string, index: number, chromeSeen = false): Promise<string> {
  await loadStyled(page, url);
  const button = visibleButtons(page, chromeSeen).nth(index);
  const label = `${(await button.getAttribute('aria-label')) ?? (await button.innerText()).trim()}`;
  const submits = await button.evaluate((element) => (element as HTMLButtonElement).type === 'submit' && (element as HTMLButtonElement).form !== null);
  if (submits) {
    const before = page.url();
    await Promise.all([page.waitForURL((next) => next.href !== before, { waitUntil: 'commit' }), button.click()]);
    return `${label}: navigates`;
  }
  const before = await visibleElementCount(page);
  await button.click();
  const after = await visibleElementCount(page);
  return after > before ? `${label}: opens` : `${label}: does nothing`;
}

/** What the pass over the pages without script found, for the tests below. */
interface NoScriptFindings {
  /** `width path label: navigates|opens|does nothing` for each visible button clicked. */
  outcomes: string[];
  /** How many visible buttons each page of home and the article showed, by `width path`. */
  buttonCounts: Map<string, number>;
  dead: string[];
  skipLink: string[];
}

/**
 * One pass per width, each page loaded once for what it shows as it comes (its markup, 跳到正文) and once more for
 * each button it clicks: at 1296 px home and an article, every visible button; at 390 px every page kind, every
 * visible button on home and the article, the others' outside the shared chrome (clicked on home already).
 */
async function passWithoutScript(browser: Browser, base: string, everyKind: readonly string[], homeAndArticle: readonly string[]): Promise<NoScriptFindings> {
  const found: NoScriptFindings = { outcomes: [], buttonCounts: new Map(), dead: [], skipLink: [] };
  for (const width of [1296, 390]) {
    const { page } = await watchedPage(browser, { javaScriptEnabled: false, userAgent: DESKTOP_UA, viewport: { width, height: width < 768 ? 844 : 900 } });
    try {
      const paths = width === 390 ? everyKind : homeAndArticle;
      for (const path of paths) {
        const url = `${base}${path}`;
        const chromeSeen = !homeAndArticle.includes(path);
        await loadStyled(page, url);
        if (width === 390) found.dead.push(...(await deadByMarkup(page)).map((control) => `${path} ${control}`));
        const count = await visibleButtons(page, chromeSeen).count();
        if (!chromeSeen) {
          found.buttonCounts.set(`${width} ${path}`, count);
          // Last on this load: it moves focus and the address's hash.
          found.skipLink.push(...(await skipLinkProblems(page)).map((problem) => `${width} ${path}: ${problem}`));
        }
        for (let index = 0; index < count; index += 1) found.outcomes.push(`${width} ${path} ${await clickOutcome(page, url, index, chromeSeen)}`);
      }
    } finally {
      await page.context().close();
    }
  }
  return found;
}

describeWithBrowser()('without JavaScript', () => {
  const suite = browserPortalSuite();
  let homeAndArticle: string[] = [];
  let found: NoScriptFindings;

  beforeAll(async () => {
    homeAndArticle = ['/', await firstLink(suite.portal.url, '/', /^\/detail\/\d+\/\d+$/)];
    const everyKind = await pagesOfEveryKind(suite.portal.url);
    expect(everyKind.slice(0, 2)).toEqual(homeAndArticle);
    found = await passWithoutScript(suite.browser, suite.portal.url, everyKind, homeAndArticle);
  }, 900_000);

  it.each([1296, 390])('every visible button on home and an article navigates or opens something when clicked, at %ipx', (width) => {
    const outcomes = found.outcomes.filter((outcome) => homeAndArticle.some((path) => outcome.startsWith(`${width} ${path} `)));
    for (const path of homeAndArticle) expect({ path, some: (found.buttonCounts.get(`${width} ${path}`) ?? 0) > 0 }).toEqual({ path, some: true });
    expect(outcomes.filter((outcome) => outcome.endsWith('does nothing'))).toEqual([]);
    // The search box's submit and the top bar's QR panels, at least: the test clicked what a reader would.
    expect(outcomes.some((outcome) => outcome.endsWith('navigates'))).toBe(true);
    expect(outcomes.some((outcome) => outcome.endsWith('opens'))).toBe(true);
  });

  it('on every page kind at 390px, no control is dead by its markup and every visible button outside the shared chrome navigates or opens something', () => {
    const outcomes = found.outcomes.filter((outcome) => outcome.startsWith('390 '));
    expect(found.dead).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.endsWith('does nothing'))).toEqual([]);
    // Home's header, top bar and footer at least: the sweep clicked what a reader would.
    expect(outcomes.filter((outcome) => outcome.startsWith('390 / ')).length).toBeGreaterThan(3);
  });

  it('跳到正文 takes keyboard focus into <main> on home and an article, at 390 and 1296 px', () => {
    expect(found.skipLink).toEqual([]);
  });

  it('leaves out the controls that need script, and script renders them', async () => {
    const detail = homeAndArticle[1]!;
    for (const javaScriptEnabled of [false, true]) {
      const { page, problems } = await watchedPage(suite.browser, { javaScriptEnabled, userAgent: DESKTOP_UA, viewport: { width: 1296, height: 900 } });
      try {
        if (javaScriptEnabled) await gotoHydrated(page, `${suite.portal.url}${detail}`);
        else await page.goto(`${suite.portal.url}${detail}`, { waitUntil: 'domcontentloaded' });
        const labels = await page.locator('button, label').evaluateAll((elements) => elements.map((element) => (element.textContent ?? '').trim()));
        const present = SCRIPT_ONLY_LABELS.filter((label) => labels.some((text) => text.startsWith(label)));
        expect({ javaScriptEnabled, present }).toEqual({ javaScriptEnabled, present: javaScriptEnabled ? SCRIPT_ONLY_LABELS : [] });
        if (javaScriptEnabled) expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
  });
});
