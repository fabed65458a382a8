#!/usr/bin/env node
// Runs a TypeScript entry (the reference API, operator CLIs, benchmarks): esbuild bundles it to dist/run
// with dependencies left external, then it is loaded in this process with the remaining arguments.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { reactRouterProduction } from './production-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args…]');
  process.exit(2);
}
const outfile = path.join(root, 'dist/run', `${path.basename(entry).replace(/\.tsx?$/, '')}.cjs`);
await build({
  absWorkingDir: root,
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  // React Router's production build (React itself follows NODE_ENV, which `npm run bench` sets).
  plugins: [reactRouterProduction],
  outfile,
  sourcemap: 'inline',
  jsx: 'automatic',
  logLevel: 'warning',
});
process.argv = [process.argv[0], outfile, ...rest];
await import(pathToFileURL(outfile).href);
