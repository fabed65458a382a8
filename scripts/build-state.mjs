// Whether the bundles in dist/ are missing or older than the sources they are built from, without loading
// esbuild (a production install has none). `npm start` rebuilds then, instead of serving an old build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the bundles are built from: source folders (walked) and single files. */
const SOURCES = [
  'client',
  'server',
  'shared',
  'scripts/reference-api',
  'scripts/cache-cli.ts',
  'scripts/cache-cli',
  'scripts/build.mjs',
  'package-lock.json',
  'tsconfig.json',
];
export const OUTPUTS = [
  'dist/client/manifest.json',
  'dist/server/main.cjs',
  'dist/reference-api/main.cjs',
  'dist/reference-api/server.cjs',
  'dist/reference-api/picture-worker.cjs',
  'dist/cli/portal-cache.cjs',
];

/** A page's own tests sit beside its loader in server/pages (docs/adding-a-page.md); no bundle is built from them. */
const TEST_FILE = /\.test\.tsx?$/;

function newestUnder(file) {
  if (TEST_FILE.test(file)) return null;
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return null;
  if (!stat.isDirectory()) return { file, mtimeMs: stat.mtimeMs };
  let newest = null;
  for (const entry of readdirSync(file)) {
    const found = newestUnder(path.join(file, entry));
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

/** { state: 'missing' } | { state: 'stale', changed: 'shared/ui/App.tsx' } | { state: 'current' } */
export function buildState(root) {
  const outputs = OUTPUTS.map((file) => path.join(root, file));
  if (!outputs.every((file) => existsSync(file))) return { state: 'missing' };
  const builtAt = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  let newest = null;
  for (const source of SOURCES) {
    const found = newestUnder(path.join(root, source));
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  if (newest && newest.mtimeMs > builtAt) return { state: 'stale', changed: path.relative(root, newest.file) };
  return { state: 'current' };
}
