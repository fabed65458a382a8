/**
 * Blocks that must not lose content, in a browser: 换一换 reaches every column author the API reports and wraps
 * to the first page (docs/product.md §4), and no ad slide crops its picture — a 16:9 video poster in a wide home
 * banner keeps its aspect beside the ad's title, and the 广告 mark stays whole inside its slide.
 */
import type { Locator, Page } from 'playwright-core';
import { SPECIAL_COLUMN_PAGE_SIZE } from '../../shared/constants';
import type { RawColumnAuthor } from '../../server/upstream/wire';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';
import { upstreamData } from '../support/upstream-data';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How one loaded ad picture or video is laid out in its slide; boxes are relative to the slide (carousels move). */
interface MediaFit {
  src: string;
  natural: { width: number; height: number };
  box: Box;
  objectFit: string;
  slide: { width: number; height: number };
  mark: Box;
  title: Box;
}

/**
 * The ad media of a carousel that have loaded, with their boxes; an unloaded (lazy, off-screen) slide is left out.
 * A video is laid out at its poster's size until it plays, then at its own: its natural size is whichever of the
 * two its box follows (the poster's when it follows neither, so a failure names the poster).
 */
function loadedMedia(carousel: Locator): Promise<MediaFit[]> {
  return carousel.locator('.ad-slide').evaluateAll(async (slides) => {
    const pictureSize = async (src: string) => {
      const picture = new Image();
      picture.src = src;
      await picture.decode().catch(() => undefined);
      return { width: picture.naturalWidth, height: picture.naturalHeight };
    };
    const fits: MediaFit[] = [];
    for (const slide of slides) {
      const media = slide.querySelector<HTMLImageElement | HTMLVideoElement>('img, video');
      if (!media) continue;
      const rect = media.getBoundingClientRect();
      let natural = { width: 0, height: 0 };
      if (media instanceof HTMLVideoElement) {
        const poster = await pictureSize(media.poster);
        const video = { width: media.videoWidth, height: media.videoHeight };
        const follows = (size: { width: number; height: number }) =>
          size.height > 0 && Math.abs(rect.width / rect.height / (size.width / size.height) - 1) < 0.03;
        natural = follows(video) && !follows(poster) ? video : poster;
      } else if (media.complete) {
        natural = { width: media.naturalWidth, height: media.naturalHeight };
      }
      if (natural.width === 0 || natural.height === 0) continue;
      const origin = slide.getBoundingClientRect();
      const relative = (element: Element | null): Box => {
        const box = element?.getBoundingClientRect() ?? new DOMRect();
        return { x: box.x - origin.x, y: box.y - origin.y, width: box.width, height: box.height };
      };
      fits.push({
        src: media.getAttribute('src') ?? '',
        natural,
        box: relative(media),
        objectFit: getComputedStyle(media).objectFit,
        slide: { width: origin.width, height: origin.height },
        mark: relative(slide.querySelector('.ad-slide__mark')),
        title: relative(slide.querySelector('.ad-slide__title')),
      });
    }
    return fits;
  });
}

/** Scrolls the carousel into view and waits until one of its slides' media has loaded (lazy pictures, autoplaying videos). */
async function withLoadedMedia(page: Page, carousel: Locator): Promise<MediaFit[]> {
  await carousel.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (element) =>
      [...(element?.querySelectorAll<HTMLImageElement | HTMLVideoElement>('.ad-slide img, .ad-slide video') ?? [])].some((media) =>
        media instanceof HTMLVideoElement ? media.videoWidth > 0 : media.complete && media.naturalWidth > 0,
      ),
    await carousel.elementHandle(),
  );
  return loadedMedia(carousel);
}

const ratio = (size: { width: number; height: number }) => size.width / size.height;
const inside = (inner: Box, outer: { width: number; height: number }) =>
  inner.x >= -0.5 && inner.y >= -0.5 && inner.x + inner.width <= outer.width + 0.5 && inner.y + inner.height <= outer.height + 0.5;

describeWithBrowser()('blocks that keep their content', () => {
  const suite = browserPortalSuite();

  it('换一换 shows every column author the API reports, 4 at a time, then wraps to the first 4', async () => {
    const reported = await upstreamData<{ list: RawColumnAuthor[]; count: number }>(
      suite.portal.upstream.url,
      '/api/special_column_author/list?page=1&page_size=50',
    );
    expect(reported.count).toBeGreaterThan(20);
    const { page, problems } = await watchedPage(suite.browser);
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const block = page.locator('.special-columns');
      const names = () => block.locator('.column-list__name').allTextContents();
      await block.locator('.column-list[data-page="1"]').waitFor();
      const button = block.getByRole('button', { name: '换一换' });
      await button.scrollIntoViewIfNeeded();
      const first = await names();
      const seen = [...first];
      const pages = Math.ceil(reported.count / SPECIAL_COLUMN_PAGE_SIZE);
      for (let next = 2; next <= pages; next += 1) {
        await button.click();
        await block.locator(`.column-list[data-page="${next}"]`).waitFor();
        seen.push(...(await names()));
      }
      expect(seen).toEqual(reported.list.map((author) => author.name));
      await button.click();
      await block.locator('.column-list[data-page="1"]').waitFor();
      expect(await names()).toEqual(first);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('home ad slides keep their pictures whole: a 16:9 poster in a wide banner at its own aspect beside the title, 广告 inside the slide', async () => {
    const { page, problems } = await watchedPage(suite.browser);
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const carousels = page.locator('.ad-carousel');
      const count = await carousels.count();
      // Every banner slot (5, 6, 8–16) and the side slots 1–4.
      expect(count).toBeGreaterThanOrEqual(15);
      const fits: MediaFit[] = [];
      for (let index = 0; index < count; index += 1) fits.push(...(await withLoadedMedia(page, carousels.nth(index))));
      for (const fit of fits) {
        const label = `${fit.src} (${fit.natural.width}×${fit.natural.height}) as ${Math.round(fit.box.width)}×${Math.round(fit.box.height)} ${fit.objectFit} in ${fit.slide.width}×${fit.slide.height}`;
        // Not cropped: shown at its own aspect, or contained (letterboxed) when wider than the slot.
        const ownAspect = Math.abs(ratio(fit.box) / ratio(fit.natural) - 1) < 0.03;
        expect([label, ownAspect || fit.objectFit === 'contain']).toEqual([label, true]);
        expect([label, inside(fit.box, fit.slide), inside(fit.mark, fit.slide), fit.mark.width > 0]).toEqual([label, true, true, true]);
        if (ratio(fit.natural) < ratio(fit.slide)) {
          // Narrower than the slot (a 16:9 poster in a banner): the slot's full height at its own aspect, the title beside it.
          expect([label, ownAspect, Math.round(fit.box.height)]).toEqual([label, true, Math.round(fit.slide.height)]);
          expect([label, fit.title.width > 0, fit.title.x + fit.title.width <= fit.box.x + 0.5]).toEqual([label, true, true]);
        }
      }
      // The case of the report: a 16:9 poster or picture (the CMS's 400×225, drawn by the resizer to fit twice the
      // slot's height) in an 896×90 banner between the home blocks.
      const posterInBanner = fits.filter((fit) => Math.abs(ratio(fit.natural) / (16 / 9) - 1) < 0.02 && ratio(fit.slide) > 8);
      expect(posterInBanner.length).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
