/**
 * Issue 38, item 4: three classes of layout fault, each measured wherever it can happen rather than on the one
 * example a reader's pass found. Items of one line share one baseline (the breadcrumb's '> 正文' sat 10px above
 * '首页 > 要闻' at 390px, once its links grew to 44px tap targets); no text runs under a control drawn over it (a
 * two-line side-ad title under a carousel's ‹ at 1296px); an ad's picture keeps its own proportions (a phone's slot
 * showed a grey box around a thin strip of a banner). A page with a fault is screenshotted into
 * test-results/layout-classes/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { browserPortalSuite, gotoHydrated, screenshotTop, watchedPage } from '../support/browser';
import { firstLink } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

/** A desktop user agent: a phone's is sent to the mobile site for an article, a narrow desktop window is not. */
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-results', 'layout-classes');
/** How far apart two baselines, or a box's aspect and its picture's, may be: rounding, not a visible step. */
const BASELINE_SLACK_PX = 1;
const ASPECT_SLACK = 0.03;

async function screenshotOnFault(page: Page, faults: readonly string[], name: string): Promise<void> {
  if (faults.length === 0) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await screenshotTop(page, path.join(SCREENSHOTS, `${name}.png`));
}

/**
 * Runs in the page: the bottom of each breadcrumb item's own text (a Range over its text nodes, so a link's
 * padding does not count). The items are set in one font size, so equal bottoms are one baseline.
 */
function breadcrumbTextBottoms(page: Page): Promise<Array<{ text: string; bottom: number }>> {
  return page.$$eval('.breadcrumb li', (items) =>
    items.map((item) => {
      // Text nodes one by one: a Range over an element would add the box of every element it holds.
      const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
      const rects: DOMRect[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        rects.push(...[...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0));
      }
      return { text: (item.textContent ?? '').trim(), bottom: Math.max(...rects.map((rect) => rect.bottom)) };
    }),
  );
}

/**
 * Brings every ad carousel of the page to life (scrolled to, so its swiper and controls start) and loads every
 * picture (lazy ones too), so what is measured next is what a reader sees once the page has settled.
 */
async function settleCarousels(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const image of document.querySelectorAll<HTMLImageElement>('.ad-slide img')) image.loading = 'eager';
  });
  for (const carousel of await page.locator('.ad-carousel:has(.ad-carousel__controls)').all()) {
    await carousel.scrollIntoViewIfNeeded();
    await carousel.locator('.ad-carousel__controls:not([hidden])').waitFor();
  }
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement | HTMLVideoElement>('.ad-slide img, .ad-slide video')].every((media) =>
      media instanceof HTMLImageElement ? media.complete : media.getBoundingClientRect().width > 0,
    ),
  );
}

/**
 * Runs in the page: every line of an ad title that a control of its carousel (‹, pause, ›, a dot) covers. Each
 * slide is measured where it would stand when shown (its offset in the strip taken off), so every slide counts,
 * not only the one on screen.
 */
function textUnderControls(page: Page): Promise<string[]> {
  return page.$$eval('.ad-carousel', (carousels) => {
    const faults: string[] = [];
    const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const carousel of carousels) {
      const swiper = carousel.querySelector('.swiper')!.getBoundingClientRect();
      const controls = [...carousel.querySelectorAll('.ad-carousel__controls button, .swiper-pagination-bullet')]
        .filter((control) => control.checkVisibility({ visibilityProperty: true }))
        .map((control) => ({ name: control.getAttribute('aria-label') ?? control.className, box: control.getBoundingClientRect() }));
      for (const slide of carousel.querySelectorAll('.swiper-slide')) {
        const shift = slide.getBoundingClientRect().left - swiper.left;
        const title = slide.querySelector('.ad-slide__title')!;
        // Its text node's lines: a Range over the title element would add the element's own (padded) box.
        const range = document.createRange();
        range.selectNodeContents(title.querySelector('span')!.firstChild ?? title);
        // Lines clipped away (past the two-line clamp, or a title squeezed to nothing by its picture) are not seen.
        const clips = [title, ...title.children].map((element) => element.getBoundingClientRect());
        for (const line of range.getClientRects()) {
          if (line.width === 0 || line.height === 0 || !clips.every((clip) => overlaps(line, clip))) continue;
          const seen = new DOMRect(line.left - shift, line.top, line.width, line.height);
          for (const control of controls.filter((item) => overlaps(seen, item.box))) {
            faults.push(`${carousel.getAttribute('aria-label')}: "${(slide.textContent ?? '').trim().slice(0, 16)}" under ${control.name}`);
          }
        }
      }
    }
    return [...new Set(faults)];
  });
}

/**
 * Runs in the page: every ad picture or video whose box is not its picture's aspect. A video is laid out at its
 * poster's size until it plays, then at its own: either will do.
 */
function adsOutOfProportion(page: Page, slack: number): Promise<string[]> {
  return page.$$eval(
    '.ad-slide img, .ad-slide video',
    async (media, tolerance) => {
      const pictureSize = async (src: string) => {
        const picture = new Image();
        picture.src = src;
        await picture.decode().catch(() => undefined);
        return { width: picture.naturalWidth, height: picture.naturalHeight };
      };
      const faults: string[] = [];
      for (const element of media) {
        const box = element.getBoundingClientRect();
        const follows = (size: { width: number; height: number }) => Math.abs(box.width / box.height / (size.width / size.height) - 1) <= tolerance;
        if (element instanceof HTMLImageElement) {
          if (!follows({ width: element.naturalWidth, height: element.naturalHeight })) {
            faults.push(
              `${element.src.split('/').pop()} ${element.naturalWidth}×${element.naturalHeight} shown ${Math.round(box.width)}×${Math.round(box.height)}`,
            );
          }
        } else if (element instanceof HTMLVideoElement) {
          const poster = await pictureSize(element.poster);
          if (!follows(poster) && !(element.videoHeight > 0 && follows({ width: element.videoWidth, height: element.videoHeight }))) {
            faults.push(
              `video poster ${element.poster.split('/').pop()} ${poster.width}×${poster.height} shown ${Math.round(box.width)}×${Math.round(box.height)}`,
            );
          }
        }
      }
      return faults;
    },
    slack,
  );
}

/** The ads out of proportion once the page has drawn its video posters: asked again each frame, for up to 10 s. */
async function adsOutOfProportionSettled(page: Page): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  let faults = await adsOutOfProportion(page, ASPECT_SLACK);
  while (faults.length > 0 && Date.now() < deadline) {
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    faults = await adsOutOfProportion(page, ASPECT_SLACK);
  }
  return faults;
}

describeWithBrowser()('layout classes', () => {
  const suite = browserPortalSuite();

  it('sets the breadcrumb items on one baseline at 360, 390 and 768px', async () => {
    const detail = await firstLink(suite.portal.url, '/', /^\/detail\/\d+\/\d+$/);
    const { page, problems } = await watchedPage(suite.browser, { userAgent: DESKTOP_UA });
    try {
      const faults: string[] = [];
      for (const width of [360, 390, 768]) {
        await page.setViewportSize({ width, height: 900 });
        await gotoHydrated(page, `${suite.portal.url}${detail}`);
        const items = await breadcrumbTextBottoms(page);
        expect(items.map((item) => item.text)).toHaveLength(3);
        const first = items[0]!.bottom;
        const off = items.filter((item) => Math.abs(item.bottom - first) > BASELINE_SLACK_PX);
        faults.push(...off.map((item) => `${width}px: "${item.text}" ${Math.round(item.bottom - first)}px off "${items[0]!.text}"`));
        await screenshotOnFault(page, faults, `breadcrumb-${width}`);
      }
      expect(faults).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('runs no ad title under a carousel control on home at 1296 and 1920px', async () => {
    const { page, problems } = await watchedPage(suite.browser, { userAgent: DESKTOP_UA });
    try {
      const faults: string[] = [];
      let carousels = 0;
      for (const width of [1296, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await gotoHydrated(page, `${suite.portal.url}/`);
        await settleCarousels(page);
        carousels += await page.locator('.ad-carousel__controls:not([hidden])').count();
        const found = await textUnderControls(page);
        faults.push(...found.map((fault) => `${width}px: ${fault}`));
        await screenshotOnFault(page, found, `carousel-text-${width}`);
      }
      // Something was measured: the home page has carousels of several ads at both widths.
      expect(carousels).toBeGreaterThan(2);
      expect(faults).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it("keeps every ad picture's proportions at 360 and 390px, on home and an article", async () => {
    const detail = await firstLink(suite.portal.url, '/', /^\/detail\/\d+\/\d+$/);
    const { page, problems } = await watchedPage(suite.browser, { userAgent: DESKTOP_UA });
    try {
      const faults: string[] = [];
      let measured = 0;
      for (const width of [360, 390]) {
        await page.setViewportSize({ width, height: 844 });
        for (const pagePath of ['/', detail]) {
          await gotoHydrated(page, `${suite.portal.url}${pagePath}`);
          await settleCarousels(page);
          measured += await page.locator('.ad-slide img, .ad-slide video').count();
          const found = await adsOutOfProportionSettled(page);
          faults.push(...found.map((fault) => `${pagePath} at ${width}px: ${fault}`));
          await screenshotOnFault(page, found, `ad-aspect-${pagePath.replace(/\W+/g, '_')}-${width}`);
        }
      }
      expect(measured).toBeGreaterThan(10);
      expect(faults).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
