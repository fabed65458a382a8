/** Generated paths for the path-handling properties: plain segments mixed with everything a URL parser rewrites or refuses. */

// Pieces a path is made of: mostly what may stand in a segment as it is, plus every character and escape the
// full parse rewrites or refuses, and dot segments in every spelling.
export const SAFE = [..."abcXYZ0189-._~!$&'()*+,;=:@"];
export const TRICKY = [
  '/',
  '/',
  '//',
  '.',
  '..',
  '/./',
  '/../',
  '%2e',
  '%2E',
  '%41',
  '%2f',
  '%zz',
  '%',
  '\\',
  ' ',
  '中',
  '"',
  '<',
  '`',
  '{',
  '|',
  '^',
  '[',
  ']',
  '\u0000',
  '\u007f',
  '#',
  '?',
];

/** A seeded generator (mulberry32), so a failure names a path that fails again. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generatedPaths(count: number, seed: number): string[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, () => {
    let path = '/';
    const length = 1 + Math.floor(random() * 12);
    for (let index = 0; index < length; index += 1) path += random() < 0.75 ? pick(SAFE) : pick(TRICKY);
    return path;
  });
}
