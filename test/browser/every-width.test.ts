/**
 * Issue 29, item 1: every page kind a reader meets on a phone holds from 360 to 1920 px. At each width the page
 * scrolls only downwards and no visible text box is narrower than two characters of its own font (the symptom of
 * a row squeezed until its text wraps a character per line). A screenshot of each page at each width is written
 * to test-results/every-width/ for a person to look at. Issue 51, item 3, over these and the pages with a cover
 * or a dated title (a topic, a news track, an e-paper page): no word a reader reads as one (a tab's or button's
 * label, a date, a short phrase of the footer) is broken over two lines; on a phone the headline starts in the
 * screen's top 40%; and 跳到正文 takes keyboard focus into the page's <main> (signed in: personal-center.test.ts,
 * without script: no-script.test.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { browserPortalSuite, gotoHydrated, screenshotTop, watchedPage } from '../support/browser';
import { skipLinkProblems } from '../support/focus-walk';
import { layoutFaults } from '../support/layout';
import { firstLink, phoneReaderPages } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

const WIDTHS = [360, 390, 768, 1296, 1920];
// A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not.
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-results', 'every-width');
/** On a phone the headline starts in this top share of the screen, under the header and any cover picture. */
const HEADLINE_WITHIN = 0.4;
const PHONE_BELOW = 768;

describeWithBrowser()('every page kind from 360 to 1920 px', () => {
  const suite = browserPortalSuite();

  it('scrolls no page sideways, squeezes no text to under two characters and breaks no word at 360, 390, 768, 1296 and 1920 px', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const base = suite.portal.url;
    const pages = {
      ...(await phoneReaderPages(base)),
      topic: await firstLink(base, '/', /^\/topicDetail\/\d+$/),
      track: await firstLink(base, '/', /^\/newsTrack\/\d+$/),
      paper: await firstLink(base, '/electronic', /^\/readNewspapers\/\d+/),
    };
    const faults: string[] = [];
    for (const width of WIDTHS) {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 }, userAgent: DESKTOP_UA });
      try {
        for (const [kind, pagePath] of Object.entries(pages)) {
          await gotoHydrated(page, `${suite.portal.url}${pagePath}`);
          const found = await layoutFaults(page);
          if (found.scrollWidth > found.innerWidth) faults.push(`${kind} at ${width}px scrolls sideways: ${found.scrollWidth} > ${found.innerWidth}`);
          for (const text of found.squeezed) faults.push(`${kind} at ${width}px: ${text}`);
          for (const word of found.broken) faults.push(`${kind} at ${width}px, broken: ${word}`);
          if (width < PHONE_BELOW && found.headlineTop !== null && found.headlineTop > HEADLINE_WITHIN * 900) {
            faults.push(`${kind} at ${width}px: headline at ${Math.round(found.headlineTop)}px`);
          }
          await screenshotTop(page, path.join(SCREENSHOTS, `${kind}-${width}.png`));
          for (const problem of await skipLinkProblems(page)) faults.push(`${kind} at ${width}px: ${problem}`);
        }
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
    expect(faults).toEqual([]);
  }, 900_000);
});
