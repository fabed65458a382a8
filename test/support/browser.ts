/** Debian's Chromium driven by playwright-core, with the flags this machine needs (no sandbox, no background networking). */
import { chromium, type Browser, type BrowserContextOptions, type Page, type Request } from 'playwright-core';
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
  trackRequests(page);
  return { page, problems };
}

interface RequestLedger {
  inFlight: Set<Request>;
  issued: number;
}

/** The requests of each watched page, counted from its first, for networkSettled. */
const ledgers = new WeakMap<Page, RequestLedger>();

function trackRequests(page: Page): void {
  const ledger: RequestLedger = { inFlight: new Set(), issued: 0 };
  page.on('request', (request) => {
    ledger.inFlight.add(request);
    ledger.issued += 1;
  });
  page.on('requestfinished', (request) => ledger.inFlight.delete(request));
  page.on('requestfailed', (request) => ledger.inFlight.delete(request));
  ledgers.set(page, ledger);
}

/** Resolves once no request of the page is in flight; after 30 s fails naming those still open. */
function allEnded(page: Page, ledger: RequestLedger): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      page.off('requestfinished', check);
      page.off('requestfailed', check);
      clearTimeout(timer);
    };
    const check = () => {
      if (ledger.inFlight.size > 0) return;
      stop();
      resolve();
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`requests still open after 30 s: ${[...ledger.inFlight].map((request) => request.url()).join(', ')}`));
    }, 30_000);
    // Registered after trackRequests' own listeners, so the ledger is up to date when these run.
    page.on('requestfinished', check);
    page.on('requestfailed', check);
    check();
  });
}

/**
 * Returns once the page's network has settled: every request it issued has ended, and two frames later it has
 * issued no new one (an effect that loads a module or data once another has arrived asks in the next frames). In
 * place of Playwright's networkidle, which waits for 500 ms with no connection on every call; for checks that read
 * the settled page (the accessibility tree, axe). The page must come from watchedPage (its requests counted from
 * the start).
 */
export async function networkSettled(page: Page): Promise<void> {
  const ledger = ledgers.get(page);
  if (!ledger) throw new Error('networkSettled needs a page from watchedPage');
  for (;;) {
    await requestsSettled(page);
    await allEnded(page, ledger);
    const issued = ledger.issued;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await requestsSettled(page);
    // Only the marker of requestsSettled since: nothing new started.
    if (ledger.issued === issued + 1) return allEnded(page, ledger);
  }
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
