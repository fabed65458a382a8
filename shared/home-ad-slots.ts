/**
 * Where home places each CMS ad slot (docs/product.md §3: home slots by position 1–6 and 8–16). 1–6 have fixed
 * places beside named blocks; 8–16 are banners between the rows of category blocks, every one of them placed
 * however many rows the site has. Home keeps in its state only the slots it places.
 */
import type { HomeAdSlot } from './content-api';

/** Slots beside named blocks: 1/2 around hot news, 3 under topics, 4 under columns, 5 after the lead block, 6 above it. */
export const FIXED_HOME_SLOTS = {
  hotNewsTop: 1,
  hotNewsBottom: 2,
  hotTopicBottom: 3,
  specialColumnBottom: 4,
  mainMiddle: 5,
  homeAdvertising: 6,
} as const;

/** Banner slots between the rows of category blocks, in page order (8 week-hot bottom, 9 recommend-news bottom, 10–16 others). */
export const BETWEEN_ROW_SLOTS: readonly number[] = [8, 9, 10, 11, 12, 13, 14, 15, 16];

const PLACED = new Set<number>([...Object.values(FIXED_HOME_SLOTS), ...BETWEEN_ROW_SLOTS]);

/** The slots home shows: a position it has a place for (never 7) and at least one ad, in position order. */
export function placedHomeSlots(slots: readonly HomeAdSlot[]): HomeAdSlot[] {
  return slots.filter((slot) => PLACED.has(slot.position) && slot.ads.length > 0).sort((left, right) => left.position - right.position);
}

/**
 * `items` split into `gaps` runs in order, as evenly as possible (earlier gaps take the extra one), so banners
 * spread over the whole page instead of stopping after the first rows. At least one run, so nothing is dropped.
 */
export function dealToGaps<T>(items: readonly T[], gaps: number): T[][] {
  const count = Math.max(1, Math.floor(gaps));
  const base = Math.floor(items.length / count);
  const extra = items.length % count;
  const runs: T[][] = [];
  let start = 0;
  for (let gap = 0; gap < count; gap += 1) {
    const size = base + (gap < extra ? 1 : 0);
    runs.push(items.slice(start, start + size));
    start += size;
  }
  return runs;
}
