// What the browser bundle may contain, checked on esbuild's metafile: nothing server-only (server/, the page
// loaders included; the reference content API) may be reachable from the browser entry, by a static or a dynamic
// import. Used by build.mjs on every build; run alone on a saved metafile:
//   node scripts/client-bundle-check.mjs <metafile.json> [entry]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Sources that must never reach the browser, as patterns of metafile input paths (relative to the project root). */
export const SERVER_ONLY = [
  { pattern: /^server\//, why: 'server code' },
  { pattern: /^scripts\/reference-api\//, why: 'the reference content API' },
];

export function serverOnlyReason(input) {
  return SERVER_ONLY.find((rule) => rule.pattern.test(input))?.why;
}

/**
 * Every server-only input reachable from `entry`, each with the import chain that reaches it (breadth first, so
 * the chain is a shortest one). Type-only imports never appear in a metafile, so they are allowed.
 */
export function serverOnlyChains(metafile, entry) {
  const cameFrom = new Map([[entry, null]]);
  const queue = [entry];
  const found = [];
  while (queue.length > 0) {
    const input = queue.shift();
    const why = serverOnlyReason(input);
    if (why) {
      found.push({ input, why, chain: chainTo(cameFrom, input) });
      continue;
    }
    for (const imported of metafile.inputs[input]?.imports ?? []) {
      if (imported.external || cameFrom.has(imported.path)) continue;
      cameFrom.set(imported.path, input);
      queue.push(imported.path);
    }
  }
  return found;
}

function chainTo(cameFrom, input) {
  const chain = [];
  for (let at = input; at !== null; at = cameFrom.get(at) ?? null) chain.unshift(at);
  return chain;
}

/** Throws, naming each offending source and how the entry reaches it, when server-only code is in the bundle. */
export function assertNoServerCode(metafile, entry) {
  const found = serverOnlyChains(metafile, entry);
  if (found.length === 0) return;
  const lines = found.map(({ input, why, chain }) => `  ${input} (${why}): ${chain.join(' → ')}`);
  throw new Error(`server-only code is reachable from ${entry}:\n${lines.join('\n')}`);
}

/** Gzipped bytes (level 9, as a static server would precompress) of each output file, by its path. */
export function gzippedSizes(outdirRoot, files) {
  return new Map(files.map((file) => [file, gzipSync(readFileSync(path.join(outdirRoot, file)), { level: 9 }).length]));
}

/** One row per module: the files it fetches (with `sharedFiles`, e.g. the entry's, counted in) and their gzipped total. */
export function pageWeights(modules, sharedFiles, sizes) {
  return Object.entries(modules).map(([page, files]) => {
    const all = [...new Set([...sharedFiles, ...files])];
    const bytes = all.reduce((sum, file) => sum + (sizes.get(file) ?? 0), 0);
    return { page, files: all.length, gzipKiB: bytes / 1024 };
  });
}

export function formatPageWeights(rows) {
  const width = Math.max(...rows.map((row) => row.page.length), 4);
  const lines = rows.map((row) => `${row.page.padEnd(width)}  ${String(row.files).padStart(5)}  ${row.gzipKiB.toFixed(1).padStart(8)}`);
  return [`${'JS'.padEnd(width)}  files  KiB gzip`, ...lines].join('\n');
}

async function main() {
  const [metafilePath, entry = 'client/entry.tsx'] = process.argv.slice(2);
  if (!metafilePath) {
    console.error('usage: node scripts/client-bundle-check.mjs <metafile.json> [entry]');
    process.exit(2);
  }
  try {
    assertNoServerCode(JSON.parse(readFileSync(metafilePath, 'utf8')), entry);
    console.log(`no server-only code reachable from ${entry}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
