/**
 * What package.json says of the running portal (its version, the Node versions it is built for), read once from
 * disk: server/*.ts under tests, or dist/server/main.cjs in the image, which runs node directly (no npm_package_*).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface PackageInfo {
  version: string;
  /** package.json's engines.node, e.g. ">=22.12 <23"; null when absent. */
  nodeRange: string | null;
}

let cached: PackageInfo | null = null;

export function packageInfo(): PackageInfo {
  cached ??= readPackage();
  return cached;
}

function readPackage(): PackageInfo {
  // The package is one or two folders up of this module (server/ or dist/server/).
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(path.resolve(__dirname, candidate), 'utf8')) as { name?: unknown; version?: unknown; engines?: { node?: unknown } };
      if (pkg.name !== 'news-portal' || typeof pkg.version !== 'string') continue;
      return { version: pkg.version, nodeRange: typeof pkg.engines?.node === 'string' ? pkg.engines.node : null };
    } catch {
      // Not there: try the next.
    }
  }
  return { version: 'unknown', nodeRange: null };
}

/**
 * Whether `running` (process.version, "v22.12.0") satisfies `range`: space-separated comparators (>=, >, <=, <, =)
 * on versions of one to three numbers, all of which must hold (package.json's engines uses no more).
 * Null when the range has a form this does not read: then nothing is said.
 */
export function satisfies(running: string, range: string): boolean | null {
  const version = numbers(running.replace(/^v/, ''));
  if (!version) return null;
  const comparators = range.trim().split(/\s+/);
  let all = true;
  for (const comparator of comparators) {
    const match = /^(>=|<=|>|<|=)?v?(\d+(?:\.\d+){0,2})$/.exec(comparator);
    const bound = match ? numbers(match[2]!) : null;
    if (!match || !bound) return null;
    const order = compare(version, bound);
    const op = match[1] ?? '=';
    const holds = op === '>=' ? order >= 0 : op === '>' ? order > 0 : op === '<=' ? order <= 0 : op === '<' ? order < 0 : order === 0;
    all &&= holds;
  }
  return all;
}

function numbers(text: string): number[] | null {
  const parts = text.split('.').map(Number);
  return parts.every((part) => Number.isInteger(part) && part >= 0) ? parts : null;
}

/** Missing parts count as 0 (">=22.12" is 22.12.0). */
function compare(left: readonly number[], right: readonly number[]): number {
  for (let i = 0; i < 3; i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
