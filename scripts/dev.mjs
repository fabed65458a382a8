#!/usr/bin/env node
// `npm run dev`: the development loop. esbuild watches the client, the server and the reference content API
// (the same options as `npm run build`, scripts/build.mjs); after each rebuild the server is restarted, with
// the embedded content API unless UPSTREAM_URL is set, so the next request sees the edit. Ctrl-C (or SIGTERM)
// stops the watchers and the server.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { context } from 'esbuild';
import { cleanClient, clientOptions, referenceApiOptions, serverOptions, writeManifest } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESTART_DEBOUNCE_MS = 100;

let server = null;
let restartTimer = null;
let stopping = false;
const failed = new Set();

function log(line) {
  console.log(`[dev] ${line}`);
}

function startServer() {
  server = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'dist/server/main.cjs')], {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      // Without a content API the development loop reads the generated reference dataset (server/platform/config.ts).
      ...(process.env.UPSTREAM_URL ? {} : { REFERENCE_API: process.env.REFERENCE_API ?? 'in-process' }),
    },
  });
  const child = server;
  child.once('exit', (code, signal) => {
    if (server === child) server = null;
    if (!stopping && signal !== 'SIGTERM') log(`server exited (${signal ?? code}); it starts again after the next edit`);
  });
}

/** Stops the running server (its own graceful shutdown) and waits until it has exited. */
function stopServer() {
  const child = server;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** Names of the bundles whose first build has finished: the server starts once all three exist. */
const firstBuilt = new Set();
const BUNDLES = 3;
/** Restarts run one after another, so two rebuilds in a row never start two servers on one port. */
let restarting = Promise.resolve();

function restartSoon() {
  clearTimeout(restartTimer);
  restartTimer = setTimeout(() => {
    restarting = restarting.then(async () => {
      if (firstBuilt.size < BUNDLES || stopping) return;
      if (failed.size > 0) return log(`not restarting: ${[...failed].join(', ')} failed to build`);
      const running = server !== null;
      await stopServer();
      if (stopping) return;
      log(running ? 'restarting the server' : 'starting the server');
      startServer();
    });
  }, RESTART_DEBOUNCE_MS);
}

/** An esbuild plugin that notes each rebuild's outcome and restarts the server after a good one. */
function onRebuild(name, after = () => undefined) {
  return {
    name: `dev-${name}`,
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0) {
          failed.add(name);
          return log(`${name}: ${result.errors.length} error(s); the server keeps the last good build`);
        }
        failed.delete(name);
        firstBuilt.add(name);
        after(result);
        log(`${name} rebuilt`);
        restartSoon();
      });
    },
  };
}

cleanClient();
const contexts = await Promise.all([
  context({ ...clientOptions, minify: false, plugins: [...clientOptions.plugins, onRebuild('client', (result) => writeManifest(result.metafile))] }),
  context({ ...serverOptions, plugins: [...serverOptions.plugins, onRebuild('server')] }),
  context({ ...referenceApiOptions, plugins: [onRebuild('reference API')] }),
]);
await Promise.all(contexts.map((ctx) => ctx.watch()));
log('watching client/, server/, shared/ and scripts/reference-api/ (Ctrl-C stops)');

async function shutdown() {
  if (stopping) return;
  stopping = true;
  clearTimeout(restartTimer);
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  await stopServer();
  process.exit(0);
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
