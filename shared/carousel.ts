/** Pure rules of the carousels and paged blocks (docs/product.md §4, §9). */

export const AUTOPLAY_DELAYS_MS = [5000, 6000, 7000, 8000] as const;
export const DEFAULT_SLIDE_HEIGHT_PX = 80;

/**
 * The autoplay delay of a carousel: the one set, else one of 5–8 s drawn at random so carousels on one page
 * do not turn in step. `random` is injectable for tests.
 */
export function autoplayDelay(set: number | undefined, random: () => number = Math.random): number {
  if (set !== undefined && Number.isFinite(set) && set > 0) return set;
  const index = Math.min(AUTOPLAY_DELAYS_MS.length - 1, Math.floor(random() * AUTOPLAY_DELAYS_MS.length));
  return AUTOPLAY_DELAYS_MS[index] ?? AUTOPLAY_DELAYS_MS[0];
}

/** The page to load after `page` of a list of `total` items: the next one, back to 1 after the last (docs/product.md §4). */
export function nextPageIndex(page: number, total: number, pageSize: number): number {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return page >= pages ? 1 : page + 1;
}
