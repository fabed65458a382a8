/** Generated paths for the path-handling properties: plain segments mixed with everything a URL parser rewrites or refuses. */
import { seeded } from '../../scripts/seeded-random';

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

export { seeded } from '../../scripts/seeded-random';

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
