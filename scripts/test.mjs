#!/usr/bin/env node
// `npm test`: prepares Redis and Chromium (test-env.mjs), builds the bundles the suites load, runs jest with any
// extra arguments under the Node the image runs (image-node.mjs), and stops whatever it started.
import { spawn, execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageNode } from './image-node.mjs';
import { prepareTestEnv } from './test-env.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const node = imageNode('the suite');
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
