/**
 * Issue 29, item 1: every page kind a reader meets on a phone holds from 360 to 1920 px. At each width the page
 * scrolls only downwards and no visible text box is narrower than two characters of its own font (the symptom of
 * a row squeezed until its text wraps a character per line). A screenshot of each page at each width is written
 * to test-results/every-width/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { browserPortalSuite, gotoHydrated, screenshotTop, watchedPage } from '../support/browser';
import { layoutFaults } from '../support/layout';
import { phoneReaderPages } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

const WIDTHS = [360, 390, 768, 1296, 1920];
// A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not.
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-results', 'every-width');

describeWithBrowser()('every page kind from 360 to 1920 px', () => {
  const suite = browserPortalSuite();

  it('scrolls no page sideways and squeezes no text to under two characters at 360, 390, 768, 1296 and 1920 px', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const pages = await phoneReaderPages(suite.portal.url);
    const faults: string[] = [];
    for (const width of WIDTHS) {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 }, userAgent: DESKTOP_UA });
      try {
        for (const [kind, pagePath] of Object.entries(pages)) {
          await gotoHydrated(page, `${suite.portal.url}${pagePath}`);
          const found = await layoutFaults(page);
          if (found.scrollWidth > found.innerWidth) faults.push(`${kind} at ${width}px scrolls sideways: ${found.scrollWidth} > ${found.innerWidth}`);
          for (const text of found.squeezed) faults.push(`${kind} at ${width}px: ${text}`);
          await screenshotTop(page, path.join(SCREENSHOTS, `${kind}-${width}.png`));
        }
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
    expect(faults).toEqual([]);
  }, 900_000);
});
