#!/usr/bin/env node
// `npm run test:unit`: the quick tier a developer runs on every edit (test-tiers.mjs): the suites that need no
// build, Redis, browser, varnishd or other installed server; jest runs them at once, on the Node that started it.
// `npm test` still runs every suite (docs/build.md "Test tiers"). `--list` prints the tier instead.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suitesByTier } from './test-tiers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const unit = suitesByTier().unit;

if (process.argv.includes('--list')) {
  console.log(unit.join('\n'));
  process.exit(0);
}
console.log(`test:unit: ${unit.length} suites that need no build, Redis, browser or other server (npm test runs every suite)`);
const jest = spawn(process.execPath, [path.join(root, 'node_modules/jest/bin/jest.js'), '--runTestsByPath', ...unit, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
  // Nothing here may reach for Redis or a browser: were a suite to, it skips with its reason instead of hanging.
  env: { ...process.env, PORTAL_TEST_NO_REDIS: 'test:unit runs without Redis', PORTAL_TEST_NO_BROWSER: 'test:unit runs without a browser' },
});
jest.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
