#!/usr/bin/env node
// Builds the browser bundle (content-hashed, split per route, with a manifest the server reads for
// modulepreload) and the Node bundle of the server. `--if-needed` skips a build whose outputs exist.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRODUCTION_DEFINE, assertProductionBundle, reactRouterProduction, serverExternals } from './production-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientOut = path.join(root, 'dist/client');
const manifestPath = path.join(clientOut, 'manifest.json');
const serverOut = path.join(root, 'dist/server/main.cjs');

const args = new Set(process.argv.slice(2));

/** Output files a module needs, itself first, then every chunk it imports statically (transitively). */
function staticClosure(outputs, file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const output = outputs[file];
  if (!output) return [];
  const chunks = output.imports.filter((imp) => imp.kind === 'import-statement' && !imp.external);
  return [file, ...chunks.flatMap((imp) => staticClosure(outputs, imp.path, seen))];
}

function publicPath(outfile) {
  return `/assets/${path.relative(path.join(clientOut, 'assets'), path.join(root, outfile)).split(path.sep).join('/')}`;
}

/** esbuild options of the browser bundle (exported for the production-build test). */
export const clientBuildOptions = {
  absWorkingDir: root,
  entryPoints: ['client/entry.tsx'],
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['chrome100', 'firefox100', 'safari15'],
  outdir: 'dist/client/assets',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'media/[name]-[hash]',
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  jsx: 'automatic',
  define: PRODUCTION_DEFINE,
  plugins: [reactRouterProduction],
  logLevel: 'warning',
};

export async function buildClient() {
  rmSync(clientOut, { recursive: true, force: true });
  const result = await build(clientBuildOptions);
  assertProductionBundle(result.metafile, 'the client bundle');
  const outputs = result.metafile.outputs;
  const modules = {};
  let entry = null;
  for (const [file, output] of Object.entries(outputs)) {
    if (!output.entryPoint || !file.endsWith('.js')) continue;
    const files = staticClosure(outputs, file).map(publicPath);
    modules[output.entryPoint] = files;
    if (output.entryPoint === 'client/entry.tsx') {
      entry = { js: files, css: output.cssBundle ? [publicPath(output.cssBundle)] : [] };
    }
  }
  if (!entry) throw new Error('esbuild produced no output for client/entry.tsx');
  const buildId = createHash('sha256').update(JSON.stringify({ entry, modules })).digest('hex').slice(0, 12);
  mkdirSync(clientOut, { recursive: true });
  writeFileSync(manifestPath, JSON.stringify({ buildId, entry, modules }, null, 2));
  return { buildId, modules: Object.keys(modules).length };
}

/** The reference content API as its own Node bundle, for `docker compose` and anyone running it apart. */
export async function buildReferenceApi() {
  await build({
    absWorkingDir: root,
    entryPoints: ['scripts/reference-api/main.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    outfile: 'dist/reference-api/main.cjs',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/** esbuild options of the server: React, React DOM and React Router bundled in their production builds. */
export const serverBuildOptions = {
  absWorkingDir: root,
  entryPoints: ['server/main.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/server/main.cjs',
  sourcemap: 'linked',
  jsx: 'automatic',
  define: PRODUCTION_DEFINE,
  plugins: [serverExternals, reactRouterProduction],
  metafile: true,
  logLevel: 'warning',
};

export async function buildServer() {
  const result = await build(serverBuildOptions);
  assertProductionBundle(result.metafile, 'the server bundle');
}

async function main() {
  if (args.has('--if-needed') && existsSync(manifestPath) && existsSync(serverOut)) return;
  const started = Date.now();
  const client = await buildClient();
  if (!args.has('--client-only')) await Promise.all([buildServer(), buildReferenceApi()]);
  const server = args.has('--client-only') ? '' : ', server and reference API bundles';
  console.log(`build ${client.buildId}: ${client.modules} client modules${server}, ${Date.now() - started} ms`);
}

// Run as a script (not when the production-build test imports the options).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
