/**
 * Swiper, loaded only by pages that show a carousel with more than one slide (AdCarousel imports this module
 * dynamically, so esbuild puts swiper in its own chunk).
 */
import Swiper from 'swiper';
import { Autoplay, Pagination } from 'swiper/modules';

export interface CarouselHandle {
  destroy(): void;
}

export function startCarousel(element: HTMLElement, delayMs: number): CarouselHandle {
  const swiper = new Swiper(element, {
    modules: [Autoplay, Pagination],
    loop: true,
    autoplay: { delay: delayMs, pauseOnMouseEnter: true, disableOnInteraction: false },
    pagination: { el: element.querySelector<HTMLElement>('.swiper-pagination'), clickable: true },
  });
  return { destroy: () => swiper.destroy(true, true) };
}
