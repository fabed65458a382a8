/** docs/product.md §9 layout and carousel rules in a browser: the menu's row under 1500px, one column under 960px, carousels started near the viewport, autoplay held on hover. */
import { browserPortalSuite, gotoHydrated, networkSettled, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';
import { firstHomeArticle } from '../support/upstream-data';

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describeWithBrowser()('responsive menu and carousels', () => {
  const suite = browserPortalSuite();

  async function menuRow(width: number): Promise<{ sameRowAsLogo: boolean }> {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 } });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const logo = await page.locator('.logo').boundingBox();
      const menu = await page.locator('.site-header__menu').boundingBox();
      expect(problems).toEqual([]);
      if (!logo || !menu) throw new Error('logo or menu not laid out');
      return { sameRowAsLogo: menu.y < logo.y + logo.height };
    } finally {
      await page.context().close();
    }
  }

  it('puts the text menu beside the logo from 1500px, on a row of its own below that', async () => {
    expect(await menuRow(1600)).toEqual({ sameRowAsLogo: true });
    expect(await menuRow(1400)).toEqual({ sameRowAsLogo: false });
  });

  it('keeps the main column readable at a phone’s and a tablet’s width: the side column goes under it, nothing scrolls sideways', async () => {
    const raw = await firstHomeArticle(suite.portal.upstream.url, 2727);
    const paths = ['/', `/detail/${raw.catid}/${raw.id}`, `/detailReading/${raw.catid}/${raw.id}`, `/V1/${raw.catid}`];
    for (const width of [412, 768]) {
      // A desktop user agent: phones are sent to the mobile site for articles, a desktop browser at this width is not.
      const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 }, userAgent: DESKTOP_UA });
      try {
        for (const path of paths) {
          await gotoHydrated(page, `${suite.portal.url}${path}`);
          const layout = await page.evaluate(() => {
            const main = document.querySelector('.columns__main');
            const side = main?.nextElementSibling;
            return {
              mainWidth: main?.getBoundingClientRect().width ?? null,
              sideBelowMain: side ? side.getBoundingClientRect().top >= main!.getBoundingClientRect().bottom : null,
              scrollWidth: document.documentElement.scrollWidth,
            };
          });
          expect({ path, width, scrollWidth: layout.scrollWidth }).toEqual({ path, width, scrollWidth: width });
          if (layout.mainWidth === null) continue;
          // The frame's padding aside, the main column takes the width.
          expect({ path, width, readable: layout.mainWidth >= width - 64 }).toEqual({ path, width, readable: true });
          if (layout.sideBelowMain !== null) expect({ path, width, sideBelowMain: layout.sideBelowMain }).toEqual({ path, width, sideBelowMain: true });
        }
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
  });

  it('starts a carousel far below the fold only once it is scrolled near the viewport', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 1600, height: 300 } });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      await networkSettled(page);
      // Carousels of several slides more than three screens down: still swiper-less markup after the page settled.
      const far = page.locator('.swiper:has(.swiper-pagination)').filter({ has: page.locator('.swiper-wrapper') });
      const tops = await far.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().top + window.scrollY));
      const farIndex = tops.findIndex((top) => top > 900);
      expect(farIndex).toBeGreaterThanOrEqual(0);
      const carousel = far.nth(farIndex);
      expect(await carousel.evaluate((element) => element.classList.contains('swiper-initialized'))).toBe(false);
      await carousel.scrollIntoViewIfNeeded();
      await page.waitForFunction((element) => element?.classList.contains('swiper-initialized'), await carousel.elementHandle());
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('plays an ad video only while it is on screen: none fetched below the fold during load, played in view, paused out of it', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 412, height: 800 }, userAgent: DESKTOP_UA });
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/media/video/')) fetched.push(new URL(request.url()).pathname);
    });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      await networkSettled(page);
      const videos = page.locator('.ad-slide video');
      const states = () =>
        videos.evaluateAll((elements) =>
          (elements as HTMLVideoElement[]).map((video) => {
            const box = video.getBoundingClientRect();
            const clip = video.closest('.swiper')!.getBoundingClientRect();
            const onScreen = box.bottom > 0 && box.top < window.innerHeight && box.right > clip.left && box.left < clip.right && box.width > 0;
            // Below the first screen: its carousel starts under it (a slide swiped out of view is not below it).
            const belowFold = clip.top + window.scrollY > window.innerHeight;
            return { src: new URL(video.currentSrc || video.src).pathname, belowFold, onScreen, playing: !video.paused };
          }),
        );
      const before = await states();
      expect(before.length).toBeGreaterThan(1);
      const below = before.filter((video) => video.belowFold);
      expect(below.length).toBeGreaterThan(0);
      // Nothing off screen plays or was fetched.
      expect(before.filter((video) => video.playing && !video.onScreen)).toEqual([]);
      for (const video of below) expect(fetched).not.toContain(video.src);
      // Scrolled into view, a video of that carousel plays; scrolled away again, it pauses.
      const carousel = await videos.nth(before.indexOf(below[0]!)).evaluateHandle((video) => video.closest('.ad-carousel')!);
      await carousel.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      const playing = await page.waitForFunction((element) => [...element.querySelectorAll('video')].find((video) => !video.paused) ?? null, carousel, {
        timeout: 30_000,
      });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForFunction((video) => (video as HTMLVideoElement).paused, playing, { timeout: 30_000 });
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('holds a carousel autoplay while the pointer is over it, and runs it again after', async () => {
    const raw = await firstHomeArticle(suite.portal.upstream.url, 2727);
    const { page, problems } = await watchedPage(suite.browser);
    try {
      await gotoHydrated(page, `${suite.portal.url}/detail/${raw.catid}/${raw.id}`);
      const carousel = page.locator('.swiper-initialized').first();
      await carousel.waitFor();
      const running = () =>
        carousel.evaluate((element) => {
          const swiper = (element as HTMLElement & { swiper?: { autoplay: { running: boolean; paused: boolean } } }).swiper;
          return swiper ? { running: swiper.autoplay.running, paused: swiper.autoplay.paused } : null;
        });
      expect(await running()).toMatchObject({ running: true, paused: false });
      await carousel.hover();
      await page.waitForFunction(
        (element) => (element as HTMLElement & { swiper?: { autoplay: { running: boolean } } }).swiper?.autoplay.running === false,
        await carousel.elementHandle(),
      );
      await page.mouse.move(5, 5);
      await page.waitForFunction(
        (element) => (element as HTMLElement & { swiper?: { autoplay: { running: boolean } } }).swiper?.autoplay.running === true,
        await carousel.elementHandle(),
      );
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
