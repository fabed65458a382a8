#!/usr/bin/env node
// Builds the browser bundle (content-hashed, split per route, with a manifest the server reads for
// modulepreload) and the Node bundle of the server. `--if-needed` skips a build whose outputs exist.
// The browser build fails when server-only code is reachable from its entry (client-bundle-check.mjs), and
// prints the JS each page's first load fetches, gzipped; its metafile is kept in dist/client/metafile.json.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoServerCode, formatPageWeights, gzippedSizes, pageWeights } from './client-bundle-check.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientOut = path.join(root, 'dist/client');
const manifestPath = path.join(clientOut, 'manifest.json');
const serverOut = path.join(root, 'dist/server/main.cjs');
const referenceApiOut = path.join(root, 'dist/reference-api/server.cjs');
const CLIENT_ENTRY = 'client/entry.tsx';

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

export async function buildClient() {
  rmSync(clientOut, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [CLIENT_ENTRY],
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
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  assertNoServerCode(result.metafile, CLIENT_ENTRY);
  const outputs = result.metafile.outputs;
  const modules = {};
  let entry = null;
  for (const [file, output] of Object.entries(outputs)) {
    if (!output.entryPoint || !file.endsWith('.js')) continue;
    const files = staticClosure(outputs, file).map(publicPath);
    modules[output.entryPoint] = files;
    if (output.entryPoint === CLIENT_ENTRY) {
      entry = { js: files, css: output.cssBundle ? [publicPath(output.cssBundle)] : [] };
    }
  }
  if (!entry) throw new Error(`esbuild produced no output for ${CLIENT_ENTRY}`);
  const buildId = createHash('sha256').update(JSON.stringify({ entry, modules })).digest('hex').slice(0, 12);
  mkdirSync(clientOut, { recursive: true });
  writeFileSync(manifestPath, JSON.stringify({ buildId, entry, modules }, null, 2));
  writeFileSync(path.join(clientOut, 'metafile.json'), JSON.stringify(result.metafile));
  return { buildId, modules: Object.keys(modules).length, pages: pageWeightTable(entry.js, modules) };
}

/**
 * JS by what loads it, gzipped: every page's first load (the entry and its chunks: the pages are in the entry),
 * then each on-demand module (swiper when a carousel nears the viewport, hls.js on a player) with its own files.
 */
function pageWeightTable(entryFiles, modules) {
  const rows = Object.fromEntries(
    Object.entries(modules).map(([source, files]) => [
      source === CLIENT_ENTRY ? 'every page, first load' : `+ on demand: ${source}`,
      source === CLIENT_ENTRY ? files : files.filter((file) => !entryFiles.includes(file)),
    ]),
  );
  const files = [...new Set(Object.values(rows).flat())];
  return formatPageWeights(pageWeights(rows, [], gzippedSizes(clientOut, files)));
}

/**
 * The reference content API as its own Node bundles: main.cjs runs it apart (`docker compose`, `npm run upstream`);
 * server.cjs is what `npm start` loads in-process when no UPSTREAM_URL is set (server/embedded-upstream.ts).
 */
export async function buildReferenceApi() {
  await build({
    absWorkingDir: root,
    entryPoints: ['scripts/reference-api/main.ts', 'scripts/reference-api/server.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    outdir: 'dist/reference-api',
    outExtension: { '.js': '.cjs' },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/** Sources the production server bundle must not contain: the fake CMS is loaded apart, only when embedded. */
const NOT_IN_SERVER_BUNDLE = 'scripts/reference-api/';

export async function buildServer() {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    outfile: 'dist/server/main.cjs',
    sourcemap: 'linked',
    jsx: 'automatic',
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(path.join(root, 'dist/server/metafile.json'), JSON.stringify(result.metafile));
  const bundled = Object.keys(result.metafile.inputs).filter((input) => input.startsWith(NOT_IN_SERVER_BUNDLE));
  if (bundled.length > 0) throw new Error(`the server bundle contains the reference content API: ${bundled.join(', ')}`);
}

async function main() {
  if (args.has('--if-needed') && [manifestPath, serverOut, referenceApiOut].every((file) => existsSync(file))) return;
  const started = Date.now();
  const client = await buildClient();
  if (!args.has('--client-only')) await Promise.all([buildServer(), buildReferenceApi()]);
  const server = args.has('--client-only') ? '' : ', server and reference API bundles';
  console.log(`build ${client.buildId}: ${client.modules} client modules${server}, ${Date.now() - started} ms`);
  if (!args.has('--quiet')) console.log(client.pages);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
