/**
 * What a reader sees go wrong in a page's layout, measured in the page: sideways overflow, text squeezed under two
 * characters and words broken over two lines, tap targets under 44px (the page sweep's sweep-checks.ts,
 * tap-targets.test.ts), and more than one h1. Shared with hostile-content.test.ts, which runs them over pages of CMS
 * content built to break them.
 */
import type { Page } from 'playwright-core';

export const MIN_TARGET_PX = 44;

export interface LayoutFaults {
  scrollWidth: number;
  innerWidth: number;
  /** Visible elements holding text whose box is narrower than two of their characters. */
  squeezed: string[];
  /**
   * Words a reader reads as one broken over two lines: a tab's or button's label (a control narrower than its
   * label), a date, and a short phrase of the header's or footer's lines between spaces (版权所有).
   */
  broken: string[];
  /** Where the page's visible headline (h1) starts, from the top of the document; null when it has none shown. */
  headlineTop: number | null;
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
    return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth, squeezed, broken: brokenWords(), headlineTop: headlineTop() };

    /** The top of the first h1 a reader sees (not one only a screen reader is given, clipped to a pixel). */
    function headlineTop(): number | null {
      const shown = [...document.querySelectorAll('h1')].find((h1) => h1.checkVisibility({ visibilityProperty: true }) && h1.getBoundingClientRect().width > 1);
      return shown ? shown.getBoundingClientRect().top + window.scrollY : null;
    }

    /** The words of the page that start on one line and end on another, as `tag.class "word"`. */
    function brokenWords(): string[] {
      const CONTROLS = 'button, [role="button"], [role="tab"], input[type="submit"], input[type="button"], nav a, .button';
      const DATE = /\d{4}-\d{1,2}-\d{1,2}/g;
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const element = node.parentElement;
        if (!element || !element.checkVisibility({ visibilityProperty: true })) continue;
        const text = node.textContent ?? '';
        const words: Array<{ start: number; end: number }> = [];
        for (const match of text.matchAll(DATE)) words.push({ start: match.index, end: match.index + match[0].length });
        // A control's label and a chrome line's phrase: runs without spaces, short enough to be one word.
        const short = element.closest(CONTROLS) !== null ? 10 : element.closest('header, footer') !== null ? 6 : 0;
        for (const match of text.matchAll(/\S+/g))
          if (match[0].length > 1 && match[0].length <= short) words.push({ start: match.index, end: match.index + match[0].length });
        for (const word of words) {
          const range = document.createRange();
          range.setStart(node, word.start);
          range.setEnd(node, word.end);
          const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
          // Pieces on one line start within half a line of each other (a line's boxes may overlap the next's).
          const first = rects[0];
          if (first && rects.some((rect) => rect.top - first.top > first.height / 2)) {
            found.push(
              `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${text.slice(word.start, word.end)}" over ${new Set(rects.map((rect) => Math.round(rect.top))).size} lines`,
            );
          }
        }
      }
      return found;
    }
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
