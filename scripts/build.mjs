#!/usr/bin/env node
// Builds the browser bundle (content-hashed, split per route, with a manifest the server reads for
// modulepreload), the Node bundle of the server and the operator CLI. `--if-needed` skips a build whose outputs
// exist; `--cli-if-stale` builds only the CLI, and only when a file it was built from is newer than it.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientOut = path.join(root, 'dist/client');
const manifestPath = path.join(clientOut, 'manifest.json');
const serverOut = path.join(root, 'dist/server/main.cjs');
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

export async function buildClient() {
  rmSync(clientOut, { recursive: true, force: true });
  const result = await build({
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
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
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

export async function buildServer() {
  await build({
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
    logLevel: 'warning',
  });
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
  if (args.has('--if-needed') && existsSync(manifestPath) && existsSync(serverOut) && existsSync(cliOut)) return;
  const started = Date.now();
  const client = await buildClient();
  if (!args.has('--client-only')) await Promise.all([buildServer(), buildReferenceApi(), buildCli()]);
  const server = args.has('--client-only') ? '' : ', server, reference API and cache CLI bundles';
  console.log(`build ${client.buildId}: ${client.modules} client modules${server}, ${Date.now() - started} ms`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
