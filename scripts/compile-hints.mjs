// Marks a browser module for eager compilation (V8's explicit compile hints, Chrome 136+): a first-line
// `//# allFunctionsCalledOnLoad` makes Chrome compile every function of the file while it streams the script in,
// on a background thread. Without it V8 only pre-parses functions and compiles each on its first call, on the
// main thread: the entry's evaluation (React DOM's and the app's functions, nearly all called while the page
// hydrates) was one task of ~65 ms on this machine, ~260 ms at Lighthouse's 4× CPU slowdown, and ~10 ms with the
// hint (scripts/bench/long-tasks.ts); the same for swiper's chunk, whose first carousel start (~20 ms, most of
// it compiling swiper's functions as they were first called) was a long task at 4×. scripts/build.mjs says which
// modules are marked. Browsers without the feature read a comment.
import { readFileSync, writeFileSync } from 'node:fs';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Puts the hint on the first line of `file` (absolute), and moves its source map (`file`.map, when there is one)
 * down one generated line to match. Idempotent.
 */
export function markEagerCompile(file) {
  const code = readFileSync(file, 'utf8');
  if (code.startsWith(COMPILE_HINT)) return;
  writeFileSync(file, `${COMPILE_HINT}\n${code}`);
  let map;
  try {
    map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
  } catch {
    return;
  }
  // A ';' opens a generated line: the hint's line maps to nothing, and every mapping moves one line down.
  map.mappings = `;${map.mappings}`;
  writeFileSync(`${file}.map`, JSON.stringify(map));
}
