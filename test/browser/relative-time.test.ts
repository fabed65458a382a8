/**
 * Relative times ('3分钟前') count from the reader's clock once the page is interactive, and again every minute:
 * a cached page rendered long ago, or a tab left open, does not keep the render's "n minutes ago". Hydration still
 * counts from the render's "now" (no mismatch warning), then the texts follow the browser's clock. Chromium's
 * clock is Playwright's fake one here, moved by the test, so the expected texts are computed from it.
 */
import type { Page } from 'playwright-core';
import { formatRelativeTime } from '../../shared/time';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';

const DAY_MS = 86_400_000;

interface ShownTime {
  dateTime: string;
  text: string;
}

function shownTimes(page: Page): Promise<ShownTime[]> {
  return page.$$eval('time[datetime]', (elements) =>
    elements.map((element) => ({ dateTime: element.getAttribute('datetime') ?? '', text: element.textContent ?? '' })),
  );
}

/** What each time should read against the browser's own "now". */
async function expectedAgainstBrowserClock(page: Page, times: readonly ShownTime[]): Promise<string[]> {
  const browserNow = Math.floor((await page.evaluate(() => Date.now())) / 1000);
  return times.map(({ dateTime }) => formatRelativeTime(Date.parse(dateTime) / 1000, browserNow));
}

/** Waits until every shown time reads as it should against the browser's clock; returns them. */
async function timesFollowTheBrowserClock(page: Page): Promise<ShownTime[]> {
  let times: ShownTime[] = [];
  let expected: string[] = [];
  // Bounded by time, not by tries: a loaded machine (stress-ng beside the suite) may take seconds to render.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    times = await shownTimes(page);
    expected = await expectedAgainstBrowserClock(page, times);
    if (times.length > 0 && times.every((time, index) => time.text === expected[index])) return times;
    // Polled from here on real time: the page's own timers and frames run on the fake clock.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(times.map(({ text }) => text)).toEqual(expected);
  return times;
}

describeWithBrowser()('relative times', () => {
  const suite = browserPortalSuite();

  it('count from the browser clock after hydration, without a hydration warning', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    try {
      // The server renders with the real time; the reader's clock is ten days later (a page cached that long, or
      // a reader's clock ahead): every time under a week old must read differently once the page is interactive.
      await page.clock.install({ time: Date.now() + 10 * DAY_MS });
      const served = await (await fetch(`${suite.portal.url}/`)).text();
      await gotoHydrated(page, `${suite.portal.url}/`);
      const times = await timesFollowTheBrowserClock(page);
      const changed = times.filter(
        ({ dateTime, text }) => !served.includes(`dateTime="${dateTime}">${text}<`) && !served.includes(`datetime="${dateTime}">${text}<`),
      );
      expect(changed.length).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('are counted again every minute while the page stays open', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    try {
      await page.clock.install({ time: Date.now() });
      await gotoHydrated(page, `${suite.portal.url}/`);
      const before = await timesFollowTheBrowserClock(page);
      // Ten days of the tab left open: the minute timer has run, and what was 'n分钟前' is a date now.
      await page.clock.fastForward(10 * DAY_MS);
      const after = await timesFollowTheBrowserClock(page);
      expect(after.filter((time, index) => time.text !== before[index]?.text).length).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
