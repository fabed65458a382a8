/**
 * The start's engines check (issue 35): package.json's engines range is read, and a Node outside it (the
 * machine's Node 20 against ">=22.12 <23") is recognised, so main.ts warns once naming both versions.
 */
import { packageInfo, satisfies } from '../../server/platform/package-info';

describe('package-info', () => {
  it('reads the version and the engines range of package.json', () => {
    expect(packageInfo().nodeRange).toBe('>=22.12 <23');
    expect(packageInfo().version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    ['v20.20.2', false],
    ['v22.11.9', false],
    ['v22.12.0', true],
    ['v22.20.1', true],
    ['v23.0.0', false],
    ['v24.1.0', false],
  ])('%s against ">=22.12 <23": %s', (running, expected) => {
    expect(satisfies(running, '>=22.12 <23')).toBe(expected);
  });

  it('says nothing (null) of a range it does not read, rather than a wrong answer', () => {
    expect(satisfies('v22.12.0', '^22 || ^24')).toBeNull();
    expect(satisfies('v22.12.0', '22.x')).toBeNull();
    expect(satisfies('v22.12.0', '=22.12.0')).toBe(true);
  });

  it('the running test Node (the project\u2019s) is inside the range: the warning would not show', () => {
    expect(satisfies(process.version, packageInfo().nodeRange!)).toBe(true);
  });
});
