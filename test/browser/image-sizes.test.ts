/**
 * Issue 29, item 1, and issue 51, item 1: pictures sized to their slot, from a reference API serving every picture
 * at one large size (REFERENCE_IMAGES=one-size), so only the portal's resizer can size them. On a 390px phone screen at 1x and 3x, every content picture of
 * home, an article, a V2 list, the topic list, the video hub and the picture stories loads a file at most twice
 * as wide as its slot needs (the slot's CSS width, or for a picture cropped to cover its box the width it is
 * drawn at, times the screen's density), and never blurrier than the slot when a larger file exists. Ads are the
 * ad system's (height-bound slots, docs/pages.md) and QR codes are SVG: both are left out.
 */
import type { Page } from 'playwright-core';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { firstLink } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

/** A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not. */
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CONTENT_IMAGES = 'main img:not(.qr-code), .banner img';

interface Loaded {
  src: string;
  /** The file's own width in pixels, whatever density srcset gave it. */
  fileWidth: number;
  /** The device pixels the slot needs across. */
  neededWidth: number;
  /** Whether srcset offers a larger file than the one chosen. */
  largerOffered: boolean;
}

/**
 * Brings each content picture into view in turn, waits for it, and measures the file the browser chose. Only the
 * chosen file is decoded again (from the cache): fetching the other candidates would put them in the cache, and
 * Chromium takes a cached larger candidate over the one the slot asks for.
 */
async function loadedPictures(page: Page): Promise<Loaded[]> {
  const count = await page.locator(CONTENT_IMAGES).count();
  const found: Loaded[] = [];
  for (let index = 0; index < count; index += 1) {
    const image = page.locator(CONTENT_IMAGES).nth(index);
    if (!(await image.isVisible()) || (await image.evaluate((element) => element.closest('.ad-slide') !== null))) continue;
    await image.scrollIntoViewIfNeeded();
    found.push(
      await image.evaluate(async (element: HTMLImageElement) => {
        if (!element.complete) await new Promise((resolve) => element.addEventListener('load', resolve, { once: true }));
        const probe = new Image();
        probe.src = element.currentSrc;
        await probe.decode();
        const fileWidth = probe.naturalWidth;
        // Candidates as the srcset names them: 'url 480w' (the file's width) or 'url 2x'.
        const candidates = (element.getAttribute('srcset') ?? '')
          .split(',')
          .map((candidate) => candidate.trim().split(/\s+/))
          .filter((parts) => parts.length === 2)
          .map(([url, descriptor]) => ({ url: new URL(url!, document.baseURI).href, value: parseFloat(descriptor!), unit: descriptor!.slice(-1) }));
        const largest = candidates.reduce<(typeof candidates)[number] | null>(
          (best, candidate) => (best && best.value >= candidate.value ? best : candidate),
          null,
        );
        const largerOffered = largest !== null && (largest.unit === 'w' ? largest.value > fileWidth : largest.url !== element.currentSrc);
        const box = element.getBoundingClientRect();
        // Cropped to cover its box, a picture is drawn as wide as its box's height at its own aspect, if wider.
        const aspect = element.naturalWidth / element.naturalHeight;
        const drawnWidth = getComputedStyle(element).objectFit === 'cover' ? Math.max(box.width, box.height * aspect) : box.width;
        return { src: element.currentSrc, fileWidth, neededWidth: drawnWidth * window.devicePixelRatio, largerOffered };
      }),
    );
  }
  return found;
}

describeWithBrowser()('pictures sized to their slot on a phone', () => {
  // A CMS as it is (issue 51): every picture at one large size, so only the portal's resizer can size them.
  const suite = browserPortalSuite({ referenceImages: 'one-size' });

  async function picturePages(): Promise<string[]> {
    const base = suite.portal.url;
    return [
      '/',
      await firstLink(base, '/', /^\/detail\/\d+\/\d+$/),
      await firstLink(base, '/siteMap', /\/V2\/\d+$/),
      await firstLink(base, '/siteMap', /^\/topic\/\d+$/),
      '/shike/2839',
      '/hd',
    ];
  }

  for (const density of [1, 3]) {
    it(`loads no content picture over twice its slot's width, nor one blurrier than it, at 390px and ${density}x`, async () => {
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 390, height: 844 }, deviceScaleFactor: density, userAgent: DESKTOP_UA });
      try {
        const faults: string[] = [];
        let measured = 0;
        for (const path of await picturePages()) {
          await gotoHydrated(page, `${suite.portal.url}${path}`);
          for (const picture of await loadedPictures(page)) {
            measured += 1;
            if (!picture.src.startsWith(`${suite.portal.url}/img/`)) faults.push(`${path}: ${picture.src} is not drawn by the resizer`);
            const needed = Math.round(picture.neededWidth);
            if (picture.fileWidth > 2 * picture.neededWidth) faults.push(`${path}: ${picture.src} is ${picture.fileWidth}px for a slot of ${needed}px`);
            if (picture.fileWidth < picture.neededWidth - 1 && picture.largerOffered)
              faults.push(`${path}: ${picture.src} is ${picture.fileWidth}px, blurred in a slot of ${needed}px`);
          }
        }
        expect(measured).toBeGreaterThan(20);
        expect(faults).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    }, 240_000);
  }
});
