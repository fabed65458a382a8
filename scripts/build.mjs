#!/usr/bin/env node
// Builds the browser bundle (content-hashed, split per route, with a manifest the server reads for
// modulepreload), the Node bundle of the server and the operator CLI. `--if-needed` skips a build whose outputs
// exist and are newer than every source (scripts/build-state.mjs); `--cli-if-stale` builds only the CLI, and only
// when a file it was built from is newer than it.
// The browser build fails when server-only code is reachable from its entry (client-bundle-check.mjs), and
// prints the JS each page's first load fetches, gzipped; its metafile is kept in dist/client/metafile.json.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildState } from './build-state.mjs';
import { PRODUCTION_DEFINE, assertProductionBundle, reactRouterProduction, serverExternals } from './production-bundle.mjs';
import { assertNoServerCode, formatPageWeights, gzippedSizes, pageWeights } from './client-bundle-check.mjs';
import { inlineMicroChunks } from './inline-micro-chunks.mjs';
import { markEagerCompile } from './compile-hints.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientOut = path.join(root, 'dist/client');
const manifestPath = path.join(clientOut, 'manifest.json');
const CLIENT_ENTRY = 'client/entry.tsx';
/**
 * The browser modules whose functions nearly all run as soon as they load: compiled eagerly, off the main thread
 * (scripts/compile-hints.mjs). Not hls.js: large, and most of it unused by a given stream.
 */
const EAGER_COMPILE = new Set([CLIENT_ENTRY, 'shared/ui/blocks/carousel-engine.ts']);
const cliOut = path.join(root, 'dist/cli/portal-cache.cjs');
/** The source files the CLI bundle was built from, to tell when it is stale. */
const cliInputs = path.join(root, 'dist/cli/inputs.json');

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

/** esbuild options of the browser bundle (also used by npm run dev and the production-build test). */
export const clientOptions = {
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
  define: PRODUCTION_DEFINE,
  plugins: [reactRouterProduction],
  logLevel: 'warning',
};

/**
 * The manifest the server reads (entry files, each page module's static closure, the build id) from esbuild's
 * metafile, after checking that no server-only code is reachable from the entry.
 */
export function writeManifest(metafile) {
  assertNoServerCode(metafile, CLIENT_ENTRY);
  assertProductionBundle(metafile, 'the client bundle');
  const outputs = metafile.outputs;
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
  writeFileSync(path.join(clientOut, 'metafile.json'), JSON.stringify(metafile));
  return { buildId, modules: Object.keys(modules).length, pages: pageWeightTable(entry.js, modules) };
}

export function cleanClient() {
  rmSync(clientOut, { recursive: true, force: true });
}

export async function buildClient() {
  cleanClient();
  const result = await build(clientOptions);
  const entryFile = Object.entries(result.metafile.outputs).find(([file, output]) => output.entryPoint === CLIENT_ENTRY && file.endsWith('.js'))?.[0];
  if (entryFile) inlineMicroChunks(root, result.metafile, entryFile);
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.js') && EAGER_COMPILE.has(output.entryPoint)) markEagerCompile(path.join(root, file));
  }
  return writeManifest(result.metafile);
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
 * server.cjs is what `npm start` loads in-process when no UPSTREAM_URL is set (server/embedded-upstream.ts);
 * picture-worker.cjs is the thread that paints its pictures (scripts/reference-api/picture-painter.ts).
 */
export const referenceApiOptions = {
  absWorkingDir: root,
  entryPoints: ['scripts/reference-api/main.ts', 'scripts/reference-api/server.ts', 'scripts/reference-api/picture-worker.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  outdir: 'dist/reference-api',
  outExtension: { '.js': '.cjs' },
  sourcemap: 'linked',
  logLevel: 'warning',
};

export async function buildReferenceApi() {
  await build(referenceApiOptions);
}

/**
 * Packages the browser alone runs (the carousel and the HLS player, loaded from effects). The server bundle
 * gets a stand-in that throws, so the image needs them only at build time (devDependencies), never at run time.
 */
const BROWSER_ONLY = /^(swiper|hls\.js)(\/.*)?$/;

const browserOnlyPackages = {
  name: 'browser-only-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: BROWSER_ONLY }, (args) => ({ path: args.path, namespace: 'browser-only' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'browser-only' }, (args) => ({
      // CommonJS, so esbuild does not check the named imports against a module with none.
      contents: `module.exports = {}; throw new Error(${JSON.stringify(`${args.path} runs in the browser only`)});`,
      loader: 'js',
    }));
  },
};

/** esbuild options of the server bundle (also used by npm run dev and the production-build test). */
export const serverOptions = {
  absWorkingDir: root,
  entryPoints: ['server/main.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/server/main.cjs',
  sourcemap: 'linked',
  jsx: 'automatic',
  // React, React DOM and React Router bundled in their production builds; every other package stays external.
  define: PRODUCTION_DEFINE,
  plugins: [browserOnlyPackages, serverExternals, reactRouterProduction],
  metafile: true,
  logLevel: 'warning',
};

/** Sources the production server bundle must not contain: the fake CMS is loaded apart, only when embedded. */
const NOT_IN_SERVER_BUNDLE = 'scripts/reference-api/';

export async function buildServer() {
  const result = await build(serverOptions);
  assertProductionBundle(result.metafile, 'the server bundle');
  writeFileSync(path.join(root, 'dist/server/metafile.json'), JSON.stringify(result.metafile));
  const bundled = Object.keys(result.metafile.inputs).filter((input) => input.startsWith(NOT_IN_SERVER_BUNDLE));
  if (bundled.length > 0) throw new Error(`the server bundle contains the reference content API: ${bundled.join(', ')}`);
}

/**
 * The cache CLI (`portal-cache`, the package's bin), one file. Dependencies stay in node_modules; each command's
 * module is evaluated only when that command runs (esbuild keeps dynamic imports lazy), so --help loads little.
 */
export async function buildCli() {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['scripts/cache-cli.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    outfile: 'dist/cli/portal-cache.cjs',
    banner: { js: '#!/usr/bin/env node' },
    metafile: true,
    jsx: 'automatic',
    logLevel: 'warning',
  });
  chmodSync(cliOut, 0o755);
  writeFileSync(cliInputs, JSON.stringify(Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules'))));
}

function cliIsStale() {
  if (!existsSync(cliOut) || !existsSync(cliInputs)) return true;
  const built = statSync(cliOut).mtimeMs;
  const inputs = JSON.parse(readFileSync(cliInputs, 'utf8'));
  return ['package.json', ...inputs].some((input) => !existsSync(path.join(root, input)) || statSync(path.join(root, input)).mtimeMs > built);
}

async function main() {
  if (args.has('--cli-if-stale')) {
    if (cliIsStale()) await buildCli();
    return;
  }
  if (args.has('--if-needed')) {
    const state = buildState(root);
    if (state.state === 'current') return;
    if (state.state === 'stale') console.log(`build: ${state.changed} is newer than the build; rebuilding`);
  }
  const started = Date.now();
  const client = await buildClient();
  if (!args.has('--client-only')) await Promise.all([buildServer(), buildReferenceApi(), buildCli()]);
  const server = args.has('--client-only') ? '' : ', server, reference API and cache CLI bundles';
  console.log(`build ${client.buildId}: ${client.modules} client modules${server}, ${Date.now() - started} ms`);
  if (!args.has('--quiet')) console.log(client.pages);
}

// Run as a script (`npm run build`, `npm start`); imported by scripts/dev.mjs for its options.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
