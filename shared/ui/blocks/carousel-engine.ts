/**
 * Swiper, loaded only by pages that show a carousel with more than one slide (AdCarousel imports this module
 * dynamically, so esbuild puts swiper in its own chunk).
 *
 * Keyboard and screen reader (issue 29): swiper's A11y module names the slides and the prev/next buttons and marks
 * the current dot (`aria-current`); the dots are rendered as real buttons named 第 N 张, so Tab reaches them and
 * Enter and Space select without scrolling the page. Autoplay runs only while nothing holds it: the pointer over
 * the carousel, focus inside it (a reader tabbing through the slides or dots never sees them move away), or the
 * reader's own pause control (WCAG 2.2.2). A held autoplay is stopped rather than paused, so it starts again
 * with the slide's whole delay and a slide change made meanwhile cannot restart it (swiper resumes a paused
 * autoplay at the end of any transition).
 */
import Swiper from 'swiper';
import { A11y, Autoplay, Navigation, Pagination } from 'swiper/modules';

export interface CarouselOptions {
  delayMs: number;
  prev: HTMLButtonElement;
  next: HTMLButtonElement;
  /** Whether the reader has paused autoplay (the pause control, or a reduced-motion preference) when it starts. */
  stopped: boolean;
}

export interface CarouselHandle {
  /** The reader's pause control: `true` keeps autoplay off until `false`. */
  setStopped(stopped: boolean): void;
  destroy(): void;
}

/** What holds autoplay; it runs when none does. */
interface Holds {
  pointer: boolean;
  focus: boolean;
  reader: boolean;
}

function bullet(index: number, className: string): string {
  return `<button type="button" class="${className}" aria-label="第 ${index + 1} 张"></button>`;
}

/**
 * Starts swiper on `element` (the `.swiper` box); `area` is the region whose hover and focus hold autoplay (the
 * carousel with its controls).
 */
export function startCarousel(element: HTMLElement, area: HTMLElement, options: CarouselOptions): CarouselHandle {
  const swiper = new Swiper(element, {
    modules: [A11y, Autoplay, Navigation, Pagination],
    // Rewind rather than loop: loop mode moves slide elements around the DOM (React's own nodes, and the Tab
    // order with them) and with two slides cannot step back from the first.
    rewind: true,
    autoplay: { delay: options.delayMs, disableOnInteraction: false },
    navigation: { prevEl: options.prev, nextEl: options.next, addIcons: false },
    pagination: { el: element.querySelector<HTMLElement>('.swiper-pagination'), clickable: true, renderBullet: bullet },
    a11y: {
      prevSlideMessage: '上一张',
      nextSlideMessage: '下一张',
      firstSlideMessage: '第一张',
      lastSlideMessage: '最后一张',
      slideLabelMessage: '第 {{index}} 张，共 {{slidesLength}} 张',
    },
  });
  const holds: Holds = { pointer: false, focus: false, reader: options.stopped };
  const sync = () => {
    const run = !holds.pointer && !holds.focus && !holds.reader;
    if (run && !swiper.autoplay.running) swiper.autoplay.start();
    if (!run && swiper.autoplay.running) swiper.autoplay.stop();
  };
  const hold = (name: keyof Holds, value: boolean) => {
    holds[name] = value;
    sync();
  };
  const listeners: Array<[keyof HTMLElementEventMap, (event: Event) => void]> = [
    ['pointerenter', (event) => (event as PointerEvent).pointerType === 'mouse' && hold('pointer', true)],
    ['pointerleave', (event) => (event as PointerEvent).pointerType === 'mouse' && hold('pointer', false)],
    ['focusin', () => hold('focus', true)],
    // Focus moving between the carousel's own slides and buttons keeps it held.
    ['focusout', (event) => !area.contains((event as FocusEvent).relatedTarget as Node | null) && hold('focus', false)],
  ];
  for (const [type, listener] of listeners) area.addEventListener(type, listener);
  holds.focus = area.contains(document.activeElement);
  sync();
  return {
    setStopped: (stopped) => hold('reader', stopped),
    destroy: () => {
      for (const [type, listener] of listeners) area.removeEventListener(type, listener);
      swiper.destroy(true, true);
    },
  };
}
