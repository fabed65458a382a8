#!/usr/bin/env node
// `npm start`: builds the client and server bundles when they are missing, then runs the server in this process
// (so SIGTERM from a supervisor reaches the server's own graceful shutdown).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// React's production build: the development one renders several times slower.
process.env.NODE_ENV ??= 'production';
execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-needed'], { stdio: 'inherit' });
await import(pathToFileURL(path.join(root, 'dist/server/main.cjs')).href);
