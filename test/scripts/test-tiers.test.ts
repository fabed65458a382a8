/**
 * The three test tiers (scripts/test-tiers.mjs, docs/build.md "Test tiers"): every suite jest runs (what `npm test`
 * runs) is in exactly one tier, so running the three tiers runs every suite; and the quick tier holds no suite that
 * starts a portal, Redis, varnishd or a browser.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const PROJECT_ROOT = path.resolve(__dirname, '../..');

type Tiers = Record<'unit' | 'integration' | 'browser', string[]>;

function tiers(): Tiers {
  return JSON.parse(execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/test-tiers.mjs')], { cwd: PROJECT_ROOT, encoding: 'utf8' })) as Tiers;
}

/** Every suite of jest's own configuration, repository-relative. */
function jestSuites(): string[] {
  const listed = execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules/jest/bin/jest.js'), '--listTests'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((file) => path.relative(PROJECT_ROOT, file).split(path.sep).join('/'))
    .sort();
}

describe('test tiers', () => {
  const byTier = tiers();

  it('puts every suite jest runs in exactly one tier, and nothing else', () => {
    const suites = jestSuites();
    expect(suites.length).toBeGreaterThan(150);
    const counted = new Map<string, string[]>();
    for (const [tier, files] of Object.entries(byTier)) for (const file of files) counted.set(file, [...(counted.get(file) ?? []), tier]);
    expect(suites.filter((file) => counted.get(file)?.length !== 1)).toEqual([]);
    expect([...counted.keys()].sort()).toEqual(suites);
  });

  it('leaves no tier empty', () => {
    for (const files of Object.values(byTier)) expect(files.length).toBeGreaterThan(10);
  });

  it('keeps suites that start a portal, Redis, varnishd or a browser out of the unit tier', () => {
    const starts = /\b(startTestPortal|launchBrowser|startVarnish|startRedisServer|describeWithRedis|describeWithBrowser)\b/;
    // This suite names them above, as words to look for.
    const others = byTier.unit.filter((file) => path.join(PROJECT_ROOT, file) !== __filename);
    expect(others.filter((file) => starts.test(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')))).toEqual([]);
  });

  it('puts every suite that drives Chromium in the browser tier, and no other', () => {
    // Directly, or as a page sweep's two-line suite (describeSweep).
    const drives = /from '[./]*support\/(browser|sign-in-browser|sweep-suite)'/;
    const driving = [...byTier.unit, ...byTier.integration, ...byTier.browser].filter((file) =>
      drives.test(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')),
    );
    expect(driving.sort()).toEqual([...byTier.browser].sort());
  });
});
