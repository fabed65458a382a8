/** Shared constants for the reference API suites: a fixed clock keeps every run identical. */
export const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
export const SEED = 424_242;
export const DAY = 86_400;
export const TWO_YEARS = 730 * DAY;

export const IMAGE_PATH = /^\/media\/img\/[a-z][a-z0-9]*-\d+x\d+\.(?:jpg|svg)$/;

/** Counts non-overlapping matches of a pattern (global flag added). */
export function countMatches(text: string, pattern: RegExp): number {
  return text.match(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))?.length ?? 0;
}
