#!/usr/bin/env node
// `npm test`: prepares Redis, Chromium, varnishd and the rest (test-env.mjs), builds the bundles the suites load,
// type-checks, runs every suite in one jest run (the three tiers together: jest's two workers and its
// heaviest-first order do better with all of them at once than tier after tier) under the Node the image runs
// (image-node.mjs), and stops whatever it started.
// `--tier integration` or `--tier browser` (npm run test:integration, test:browser) runs that tier's suites only
// (test-tiers.mjs), without the type-check; `npm run test:unit` is test-unit.mjs. Other arguments go to jest.
import { spawn, execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageNode } from './image-node.mjs';
import { prepareTestEnv } from './test-env.mjs';
import { suitesByTier } from './test-tiers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The tier named by `--tier NAME` and the arguments left for jest. */
function parseArguments(args) {
  const at = args.indexOf('--tier');
  if (at === -1) return { tier: null, jestArgs: args };
  const tier = args[at + 1];
  if (tier !== 'integration' && tier !== 'browser') {
    console.error(`--tier takes integration or browser (the unit tier is npm run test:unit), not ${tier ?? 'nothing'}`);
    process.exit(2);
  }
  return { tier, jestArgs: [...args.slice(0, at), ...args.slice(at + 2)] };
}

const { tier, jestArgs } = parseArguments(process.argv.slice(2));
const suites = tier ? ['--runTestsByPath', ...suitesByTier()[tier]] : [];
const node = imageNode('the suite');
console.log(
  `jest on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} (${node})${tier ? `: the ${tier} tier, ${suites.length - 1} suites` : ''}`,
);
const { env, stop } = await prepareTestEnv();
let code = 1;
try {
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit', cwd: root });
  if (!tier) {
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], {
      stdio: 'inherit',
      cwd: root,
    });
  }
  const jest = spawn(node, [path.join(root, 'node_modules/jest/bin/jest.js'), ...jestArgs, ...suites], {
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
