/**
 * Issue 29, item 3: a reader without JavaScript never meets a dead control. With script off, every visible button
 * on home and an article page is clicked (the page loaded afresh for each): it submits its form (the page
 * navigates) or opens what it controls (more of the page becomes visible, as the top bar's QR panels do on focus).
 * Controls that need script (夜间, 字号, 点赞, 收藏, 微信, 换一换, 订阅) are absent, and appear once script runs.
 * 跳到正文 takes keyboard focus into <main> without script too (issue 51, item 3; with script: every-width.test.ts).
 */
import type { Page } from 'playwright-core';
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

describeWithBrowser()('without JavaScript', () => {
  const suite = browserPortalSuite();

  async function pagesToTry(): Promise<string[]> {
    return ['/', await firstLink(suite.portal.url, '/', /^\/detail\/\d+\/\d+$/)];
  }

  it.each([1296, 390])('every visible button on home and an article navigates or opens something when clicked, at %ipx', async (width) => {
    const { page } = await watchedPage(suite.browser, { javaScriptEnabled: false, userAgent: DESKTOP_UA, viewport: { width, height: 900 } });
    try {
      const outcomes: string[] = [];
      for (const path of await pagesToTry()) {
        const url = `${suite.portal.url}${path}`;
        await loadStyled(page, url);
        const count = await visibleButtons(page).count();
        expect({ path, some: count > 0 }).toEqual({ path, some: true });
        for (let index = 0; index < count; index += 1) outcomes.push(`${path} ${await clickOutcome(page, url, index)}`);
      }
      expect(outcomes.filter((outcome) => outcome.endsWith('does nothing'))).toEqual([]);
      // The search box's submit and the top bar's QR panels, at least: the test clicked what a reader would.
      expect(outcomes.some((outcome) => outcome.endsWith('navigates'))).toBe(true);
      expect(outcomes.some((outcome) => outcome.endsWith('opens'))).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  it('on every page kind at 390px, no control is dead by its markup and every visible button outside the shared chrome navigates or opens something', async () => {
    const { page } = await watchedPage(suite.browser, { javaScriptEnabled: false, userAgent: DESKTOP_UA, viewport: { width: 390, height: 844 } });
    try {
      const paths = await pagesOfEveryKind(suite.portal.url);
      const outcomes: string[] = [];
      const dead: string[] = [];
      for (const [position, path] of paths.entries()) {
        const url = `${suite.portal.url}${path}`;
        await loadStyled(page, url);
        dead.push(...(await deadByMarkup(page)).map((control) => `${path} ${control}`));
        // The header's and footer's buttons are clicked on the first page (home), and are the same on the others.
        const chromeSeen = position > 0;
        const count = await visibleButtons(page, chromeSeen).count();
        for (let index = 0; index < count; index += 1) outcomes.push(`${path} ${await clickOutcome(page, url, index, chromeSeen)}`);
      }
      expect(dead).toEqual([]);
      expect(outcomes.filter((outcome) => outcome.endsWith('does nothing'))).toEqual([]);
      // Home's header, top bar and footer at least: the sweep clicked what a reader would.
      expect(outcomes.filter((outcome) => outcome.startsWith('/ ')).length).toBeGreaterThan(3);
    } finally {
      await page.context().close();
    }
  }, 600_000);

  it('跳到正文 takes keyboard focus into <main> on home and an article, at 390 and 1296 px', async () => {
    const problems: string[] = [];
    for (const width of [390, 1296]) {
      const { page } = await watchedPage(suite.browser, { javaScriptEnabled: false, userAgent: DESKTOP_UA, viewport: { width, height: 900 } });
      try {
        for (const path of await pagesToTry()) {
          await loadStyled(page, `${suite.portal.url}${path}`);
          problems.push(...(await skipLinkProblems(page)).map((problem) => `${width} ${path}: ${problem}`));
        }
      } finally {
        await page.context().close();
      }
    }
    expect(problems).toEqual([]);
  });

  it('leaves out the controls that need script, and script renders them', async () => {
    const detail = (await pagesToTry())[1]!;
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
