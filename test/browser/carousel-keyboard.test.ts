/**
 * Issue 29, item 2: the home page's ad carousel driven by the keyboard alone. Tab reaches its dots (buttons named
 * 第 N 张, the current one `aria-current`) and its controls (上一张, 暂停轮播, 下一张); Enter and Space select
 * without scrolling the page; autoplay is held while focus is inside and stays off after 暂停轮播 until 继续轮播
 * (WCAG 2.2.2); a slide's link reached by Tab is the slide on screen, never one swiped away.
 */
import type { Locator, Page } from 'playwright-core';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';

type SwiperElement = HTMLElement & { swiper?: { autoplay: { running: boolean }; realIndex: number } };

/** The reader's view of the carousel now: current slide, autoplay, what has focus (by its accessible name). */
function carouselState(carousel: Locator) {
  return carousel.evaluate((area) => {
    const swiper = (area.querySelector('.swiper') as SwiperElement).swiper!;
    const focused = document.activeElement;
    return {
      realIndex: swiper.realIndex,
      autoplay: swiper.autoplay.running,
      current: area.querySelector('.swiper-pagination-bullet[aria-current="true"]')?.getAttribute('aria-label') ?? null,
      focused: focused && area.contains(focused) ? (focused.getAttribute('aria-label') ?? focused.textContent?.trim() ?? '') : null,
    };
  });
}

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element matches `selector` inside the page's `index`th
 * carousel, or with `selector` null is outside it; at most `limit` presses.
 */
async function tabUntil(page: Page, index: number, selector: string | null, { back = false, limit = 400 } = {}): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const reached = await page.evaluate(
      ({ index, selector }) => {
        const focused = document.activeElement;
        const inside = !!focused && document.querySelectorAll('.ad-carousel')[index]!.contains(focused);
        return selector === null ? !inside : inside && !!focused!.closest(selector);
      },
      { index, selector },
    );
    if (reached) return;
  }
  throw new Error(`focus never reached ${selector ?? 'outside the carousel'} after ${limit} presses`);
}

describeWithBrowser()('the carousel by keyboard', () => {
  const suite = browserPortalSuite();

  it('reaches dots and controls by Tab, selects with Enter and Space, holds autoplay on focus and pauses it for good with 暂停轮播', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 1296, height: 900 } });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const carousel = page.locator('.ad-carousel:has(.swiper-initialized)').first();
      await carousel.waitFor();
      const handle = await carousel.elementHandle();
      const wait = (expected: { realIndex?: number; autoplay?: boolean; current?: string }) =>
        page.waitForFunction(
          ({ area, expected }) => {
            const swiper = (area.querySelector('.swiper') as SwiperElement).swiper!;
            const current = area.querySelector('.swiper-pagination-bullet[aria-current="true"]')?.getAttribute('aria-label');
            return (
              (expected.realIndex === undefined || swiper.realIndex === expected.realIndex) &&
              (expected.autoplay === undefined || swiper.autoplay.running === expected.autoplay) &&
              (expected.current === undefined || current === expected.current)
            );
          },
          { area: handle!, expected },
        );

      // Named buttons, the current dot marked, autoplay on while nothing holds it.
      const dots = carousel.locator('.swiper-pagination-bullet');
      const count = await dots.count();
      expect(count).toBeGreaterThan(1);
      expect(await dots.evaluateAll((elements) => elements.map((dot) => `${dot.tagName} ${dot.getAttribute('aria-label')}`))).toEqual(
        Array.from({ length: count }, (_, index) => `BUTTON 第 ${index + 1} 张`),
      );
      for (const name of ['上一张', '暂停轮播', '下一张']) expect(await carousel.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
      await wait({ autoplay: true });

      // Tab from the top of the page: every slide link met on the way is the slide on screen.
      const first = await handle!.evaluate((area) => [...document.querySelectorAll('.ad-carousel')].indexOf(area));
      const slideLinksSeen: boolean[] = [];
      for (let presses = 0; presses < 400; presses += 1) {
        await page.keyboard.press('Tab');
        const where = await page.evaluate((index) => {
          const focused = document.activeElement;
          const area = document.querySelectorAll('.ad-carousel')[index]!;
          if (!focused || !area.contains(focused)) return 'outside';
          return focused.closest('.swiper-slide') ? 'slide' : focused.matches('.swiper-pagination-bullet') ? 'dot' : 'other';
        }, first);
        if (where === 'slide') {
          slideLinksSeen.push(true);
          // swiper brings the focused slide in (A11y module); the link ends inside the carousel's box.
          await page.waitForFunction(() => {
            const link = document.activeElement!;
            const box = link.getBoundingClientRect();
            const clip = link.closest('.swiper')!.getBoundingClientRect();
            return box.width > 0 && box.left >= clip.left - 1 && box.right <= clip.right + 1;
          });
        }
        if (where === 'dot') break;
      }
      expect(slideLinksSeen.length).toBeGreaterThan(0);
      expect(await carouselState(carousel)).toMatchObject({ focused: '第 1 张', autoplay: false });

      // Enter on 第 2 张, then Space back on 第 1 张: selected, marked, and Space does not scroll the page.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await wait({ realIndex: 1, current: '第 2 张' });
      await page.keyboard.press('Shift+Tab');
      const scrollY = await page.evaluate(() => window.scrollY);
      await page.keyboard.press('Space');
      await wait({ realIndex: 0, current: '第 1 张' });
      expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);

      // 上一张 and 下一张 by keyboard; autoplay held all along while focus is inside.
      await tabUntil(page, first, '.ad-carousel__prev');
      expect(await carouselState(carousel)).toMatchObject({ focused: '上一张', autoplay: false });
      await page.keyboard.press('Enter');
      await wait({ realIndex: count - 1, current: `第 ${count} 张` });
      await tabUntil(page, first, '.ad-carousel__next', { limit: 2 });
      await page.keyboard.press('Space');
      await wait({ realIndex: 0, current: '第 1 张' });

      // Focus leaves: autoplay runs again.
      await page.keyboard.press('Tab');
      expect((await carouselState(carousel)).focused).toBeNull();
      await wait({ autoplay: true });

      // 暂停轮播: autoplay stays off after focus leaves, until 继续轮播.
      await tabUntil(page, first, '.ad-carousel__pause', { back: true, limit: 2 });
      await page.keyboard.press('Enter');
      expect(await carousel.getByRole('button', { name: '继续轮播', exact: true }).isVisible()).toBe(true);
      await tabUntil(page, first, null, { limit: 3 });
      await tabUntil(page, first, '.ad-carousel__play', { back: true, limit: 3 });
      await tabUntil(page, first, null, { limit: 3 });
      expect(await carouselState(carousel)).toMatchObject({ autoplay: false, focused: null });
      await tabUntil(page, first, '.ad-carousel__play', { back: true, limit: 3 });
      await page.keyboard.press('Space');
      expect(await carousel.getByRole('button', { name: '暂停轮播', exact: true }).isVisible()).toBe(true);
      await tabUntil(page, first, null, { limit: 3 });
      await wait({ autoplay: true });
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('starts paused, with 继续轮播 offered, for a reader who asks for reduced motion', async () => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 1296, height: 900 }, reducedMotion: 'reduce' });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      const carousel = page.locator('.ad-carousel:has(.swiper-initialized)').first();
      await carousel.getByRole('button', { name: '继续轮播', exact: true }).waitFor();
      expect(await carouselState(carousel)).toMatchObject({ autoplay: false });
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
