#!/usr/bin/env node
// The three test tiers (docs/build.md "Test tiers"), found by what each suite imports, so a suite moves tier by
// itself when it starts importing a harness:
// - browser: reaches a browser (playwright-core, Lighthouse), through test/support/browser.ts or directly;
// - integration: reaches a harness module that starts a portal, the built server, Redis, varnishd, nginx,
//   Compose, promtool, stress-ng or load, or reads the build (dist/), or runs apt-get;
// - unit: everything else, run without a build or any server.
// `npm test` runs every suite at once; `node scripts/test-tiers.mjs` prints each suite with its tier (JSON).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** jest.config.js's roots. */
const ROOTS = ['test', 'server/pages'];
export const TIERS = ['unit', 'integration', 'browser'];

/** Harness modules that start something outside the test's process (a portal, Redis, varnishd, load, …). */
const SERVER_HARNESS = [
  /^test\/support\/(portal|varnish|built-server|redis-server|redis-cluster|redis-sentinel|redis-portal|requirements|cache-cli|load)\.ts$/,
  /^test\/server\/cache\/redis-helpers\.ts$/,
];
const BROWSER_HARNESS = [/^test\/support\/browser\.ts$/];
const BROWSER_PACKAGES = new Set(['playwright-core', 'lighthouse']);
const SERVER_PACKAGES = new Set(['autocannon']);
const IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
/** `import type … from` and `export type … from`: they load nothing, so they reach no harness. */
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s[^;]*;/gm;

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return testFiles(file);
    return /\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

function resolved(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, ...['.ts', '.tsx', '.js', '.mjs', '.cjs'].map((ext) => base + ext), path.join(base, 'index.ts')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile()) ?? null;
}

/** 0 unit, 1 integration, 2 browser: the most any module reached from `file` needs. */
function needOf(file, seen) {
  if (seen.has(file)) return seen.get(file);
  const relative = path.relative(root, file).split(path.sep).join('/');
  seen.set(file, 0);
  if (BROWSER_HARNESS.some((pattern) => pattern.test(relative))) return remember(seen, file, 2);
  const text = readFileSync(file, 'utf8');
  let need = SERVER_HARNESS.some((pattern) => pattern.test(relative)) || /\bdist\/|scripts\/apt\.mjs/.test(text) ? 1 : 0;
  for (const [, specifier] of text.replace(TYPE_ONLY, '').matchAll(IMPORT)) {
    if (need === 2) break;
    if (!specifier.startsWith('.')) {
      const name = specifier.split('/')[0];
      need = Math.max(need, BROWSER_PACKAGES.has(name) ? 2 : SERVER_PACKAGES.has(name) ? 1 : 0);
      continue;
    }
    const target = resolved(file, specifier);
    if (target && !target.includes(`${path.sep}node_modules${path.sep}`)) need = Math.max(need, needOf(target, seen));
  }
  return remember(seen, file, need);
}

function remember(seen, file, need) {
  seen.set(file, need);
  return need;
}

/** Every suite jest runs (repository-relative, sorted), by tier. */
export function suitesByTier() {
  const seen = new Map();
  const tiers = { unit: [], integration: [], browser: [] };
  const files = ROOTS.flatMap((dir) => testFiles(path.join(root, dir)))
    .map((file) => [path.relative(root, file).split(path.sep).join('/'), file])
    .sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [relative, file] of files) tiers[TIERS[needOf(file, seen)]].push(relative);
  return tiers;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  console.log(JSON.stringify(suitesByTier(), null, 2));
}
