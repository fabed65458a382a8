#!/usr/bin/env node
// Runs a TypeScript entry (the reference API, operator CLIs, benchmarks): esbuild bundles it to dist/run
// with dependencies left external, then it is loaded in this process with the remaining arguments. With
// `--image-node` first, a benchmark measuring portals runs on the image's Node instead (image-node.mjs): the portals
// it spawns with process.execPath then run on what ships.
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { imageNode } from './image-node.mjs';
import { reactRouterProduction } from './production-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const onImageNode = process.argv[2] === '--image-node';
const [entry, ...rest] = process.argv.slice(onImageNode ? 3 : 2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs [--image-node] <entry.ts> [args…]');
  process.exit(2);
}
if (onImageNode) {
  const node = imageNode(entry);
  if (node !== process.execPath) await runOn(node);
}

/** This runner again on `node` with the same entry and arguments; exits with its code, passing on SIGINT and SIGTERM. */
async function runOn(node) {
  const child = spawn(node, [fileURLToPath(import.meta.url), entry, ...rest], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  process.exit(code);
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
