/**
 * What a reader sees go wrong in a page's layout, measured in the page: sideways overflow, text squeezed under two
 * characters (every-width.test.ts), tap targets under 44px (tap-targets.test.ts), and more than one h1. Shared by
 * those suites and by hostile-content.test.ts, which runs them over pages of CMS content built to break them.
 */
import type { Page } from 'playwright-core';

export const MIN_TARGET_PX = 44;

export interface LayoutFaults {
  scrollWidth: number;
  innerWidth: number;
  /** Visible elements holding text whose box is narrower than two of their characters. */
  squeezed: string[];
}

/** Runs in the page: sideways overflow and text boxes too narrow to read. */
export function layoutFaults(page: Page): Promise<LayoutFaults> {
  return page.evaluate(() => {
    const squeezed: string[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      const ownText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim().length > 1);
      if (!ownText) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none' || style.display === 'contents') continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Visually hidden text (a screen reader's label) is clipped to a pixel on purpose.
      if (style.clipPath !== 'none' || style.clip !== 'auto' || box.width <= 1) continue;
      const fontSize = parseFloat(style.fontSize);
      if (box.width < 2 * fontSize) {
        const text = (element.textContent ?? '').trim().slice(0, 12);
        squeezed.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${text}" ${Math.round(box.width)}px < 2×${fontSize}px`);
      }
    }
    return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth, squeezed };
  });
}

/** Runs in the page: every tap target smaller than `min` either way, as `tag.class "text" W×H`. */
export function smallTargets(page: Page, min: number): Promise<string[]> {
  return page.evaluate((minimum) => {
    const TARGETS = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"]';
    /** WCAG 2.5.5's inline exception: a link in a sentence, its size set by the line-height of the text around it. */
    const inRunningText = (element: Element): boolean => {
      if (element.closest('.article__body')) return true;
      if (getComputedStyle(element).display !== 'inline') return false;
      const parent = element.parentElement;
      return parent !== null && [...parent.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '');
    };
    const faults: string[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>(TARGETS)) {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Off to the side until it is wanted: the skip link before focus, a carousel's slides not shown.
      if (box.right <= 0 || box.left >= window.innerWidth) continue;
      if (inRunningText(element)) continue;
      // A finger's tap passes through it (a carousel's dots on a phone: an indicator, still a button for keys).
      if (getComputedStyle(element).pointerEvents === 'none') continue;
      if (box.width >= minimum && box.height >= minimum) continue;
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? element.getAttribute('placeholder') ?? '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 12);
      const classes = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
      // Where it is: the nearest ancestor with a class (a list, a bar, a block).
      const within = element.parentElement?.closest('[class]')?.classList[0] ?? 'body';
      faults.push(`${element.tagName.toLowerCase()}${classes} in .${within} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return faults;
  }, min);
}

/** The texts of the page's visible h1 elements (issue 29, item 2: one per page). */
export function visibleH1s(page: Page): Promise<string[]> {
  return page.$$eval('h1', (elements) =>
    elements.filter((element) => element.checkVisibility({ visibilityProperty: true })).map((element) => (element.textContent ?? '').trim().slice(0, 20)),
  );
}
