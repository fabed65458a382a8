/** Debian's Chromium driven by playwright-core, with the flags this machine needs (no sandbox, no background networking). */
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { startTestPortal, type TestPortal, type TestPortalOptions } from './portal';
import { chromiumPath } from './requirements';

/** `extraArgs`, e.g. --host-resolver-rules mapping a site's domain to 127.0.0.1, so no request leaves loopback. */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

export interface WatchedPage {
  page: Page;
  problems: string[];
}

export async function watchedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  const page = await context.newPage();
  // Generous enough for a loaded CI box (other test runs sharing two cores), and still well inside jest's test
  // timeout (jest.config.js), so a failing step names itself instead of running into it.
  page.setDefaultTimeout(30_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return { page, problems };
}

export async function gotoHydrated(page: Page, url: string): Promise<void> {
  // Hydration needs the document and its scripts, not every picture: 'load' would also wait for each image.
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('html[data-hydrated="true"]');
}

/**
 * Scrolls to `y` and returns once the page has seen the scroll event and painted twice since: a scroll listener's
 * state change has rendered by then, so a test can assert what is absent without sleeping.
 */
export async function scrollAndSettle(page: Page, y: number): Promise<void> {
  await page.evaluate(async (top) => {
    if (Math.round(window.scrollY) !== Math.round(top)) {
      const scrolled = new Promise((resolve) => window.addEventListener('scroll', resolve, { once: true }));
      window.scrollTo(0, top);
      await scrolled;
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, y);
}

/**
 * Returns once every request the page issued before this call has been reported: the page fetches a marker after
 * them and the browser reports requests in the order they are sent, so seeing the marker means nothing earlier is
 * still to come. For asserting that an action sent no request, without a fixed wait.
 */
export async function requestsSettled(page: Page): Promise<void> {
  const marker = `/favicon.ico?settled=${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const seen = page.waitForRequest((request) => request.url().endsWith(marker));
  await page.evaluate((path) => void fetch(path, { cache: 'no-store' }).catch(() => undefined), marker);
  await seen;
}

export interface BrowserPortalSuite {
  /** The test portal (and its reference API) the block's pages come from. */
  portal: TestPortal;
  browser: Browser;
}

/** For a describe block: a test portal and a browser, started before its tests and stopped after them. */
export function browserPortalSuite(options: TestPortalOptions = {}): BrowserPortalSuite {
  const suite = {} as BrowserPortalSuite;
  beforeAll(async () => {
    suite.portal = await startTestPortal(options);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.portal?.close();
  });
  return suite;
}

/** How much of a page a layout suite's screenshot keeps: three screens of a 900 px window. */
const SCREENSHOT_MAX_HEIGHT = 2700;

/**
 * A screenshot of the page's top, at most three screens, for a person to look at: the layout suites find faults by
 * measuring, and a whole long page costs seconds to capture at every width (hostile-content spent most of its
 * minutes on them).
 */
export async function screenshotTop(page: Page, file: string): Promise<void> {
  const { width, height } = await page.evaluate(() => ({ width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight }));
  await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width, height: Math.min(height, SCREENSHOT_MAX_HEIGHT) } });
}
