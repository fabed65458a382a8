#!/usr/bin/env node
// `npm start`: builds the client and server bundles when they are missing or older than their sources (an edit
// is never served from an old build without a word), then runs the server in this process. `npm start` is
// `exec node scripts/start.mjs`, so npm's shell is replaced by this process and a SIGTERM sent to npm (which
// npm forwards) or to this process reaches the server's own graceful shutdown. A supervisor (systemd, runit,
// Kubernetes) should run `node dist/server/main.cjs` after a build, as the Docker image does, or this script.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildState } from './build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// React's production build: the development one renders several times slower.
process.env.NODE_ENV ??= 'production';
// A local run without a content API reads the generated reference dataset; the server itself refuses to start
// without UPSTREAM_URL unless asked for it by name (server/platform/config.ts contentSourceOf), so the image never does.
if (!process.env.UPSTREAM_URL) process.env.REFERENCE_API ??= 'in-process';

function esbuildInstalled() {
  try {
    createRequire(import.meta.url).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

const state = buildState(root);
if (state.state !== 'current') {
  if (esbuildInstalled()) {
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-needed'], { stdio: 'inherit' });
  } else if (state.state === 'missing') {
    console.error('start: no build in dist/ and no esbuild to make one (installed with --omit=dev?): run `npm ci && npm run build`');
    process.exit(1);
  } else {
    console.warn(`start: WARNING ${state.changed} is newer than the build, and esbuild is not installed: serving the old build`);
  }
}
await import(pathToFileURL(path.join(root, 'dist/server/main.cjs')).href);
