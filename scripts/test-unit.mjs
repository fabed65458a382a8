#!/usr/bin/env node
// `npm run test:unit`: the quick tier a developer runs on every edit. The suites that need no build, Redis,
// browser, varnishd or other installed server, found by what they import (a suite that reaches one of the
// harness modules below starts real processes); jest runs them at once, on the Node that started it.
// `npm test` still runs every suite (docs/build.md "Test tiers"). `--list` prints the tier instead.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** jest.config.js's roots. */
const ROOTS = ['test', 'server/pages'];

/**
 * What starts or needs something outside the process: a portal (it reads the client build), the built server,
 * Redis (a client, a server of the test's own, the Redis helpers), a browser, varnishd, nginx, Compose, promtool,
 * stress-ng, or load against a running server.
 */
const NEEDS_MORE = [
  /^test\/support\/(portal|browser|varnish|built-server|redis-server|redis-cluster|redis-sentinel|redis-portal|requirements|cache-cli|load|crawl|sign-in|page-kinds|rewriting-upstream|hostile-content|axe|layout|focus-walk)\.ts$/,
  /^test\/server\/cache\/redis-helpers\.ts$/,
];
const NEEDS_PACKAGE = new Set(['playwright-core', 'autocannon', 'lighthouse']);
const IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return testFiles(file);
    return /\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

function resolved(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, ...['.ts', '.tsx', '.js', '.mjs', '.cjs'].map((ext) => base + ext), path.join(base, 'index.ts')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile()) ?? null;
}

/** Whether `file` (or anything it imports from the repository) needs more than this process. */
function needsMore(file, seen = new Map()) {
  if (seen.has(file)) return seen.get(file);
  const relative = path.relative(root, file);
  seen.set(file, false);
  const text = readFileSync(file, 'utf8');
  let verdict = NEEDS_MORE.some((pattern) => pattern.test(relative)) || /\bdist\//.test(text);
  for (const [, specifier] of text.matchAll(IMPORT)) {
    if (verdict) break;
    if (!specifier.startsWith('.')) {
      verdict = NEEDS_PACKAGE.has(specifier.split('/')[0]);
      continue;
    }
    const target = resolved(file, specifier);
    if (target && !target.includes(`${path.sep}node_modules${path.sep}`)) verdict = needsMore(target, seen);
  }
  seen.set(file, verdict);
  return verdict;
}

const unit = ROOTS.flatMap((dir) => testFiles(path.join(root, dir)))
  .filter((file) => !needsMore(file))
  .map((file) => path.relative(root, file))
  .sort();

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
