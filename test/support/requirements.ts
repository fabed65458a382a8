/**
 * Suites that need Redis or a browser run where those exist. Elsewhere they skip with one line saying what to
 * install; under CI=true a missing requirement fails the suite instead, because nothing may skip in CI.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const CI = process.env.CI === 'true';

function requirement(missingReason: string | undefined, what: string): jest.Describe {
  if (!missingReason) return describe;
  if (CI) throw new Error(`CI=true but ${what} is missing: ${missingReason}`);
  // One clear line per suite, in the test output rather than buried in a skip count.
  console.warn(`SKIPPED (${what}): ${missingReason}`);
  return describe.skip;
}

export function describeWithRedis(): jest.Describe {
  return requirement(process.env.PORTAL_TEST_NO_REDIS, 'Redis');
}

/** Suites that start Redis Clusters and Sentinel sets of their own need the server binaries, not a running Redis. */
export function describeWithRedisServers(): jest.Describe {
  const missing = ['redis-server', 'redis-cli'].filter((binary) => !onPath(binary));
  return requirement(missing.length > 0 ? `${missing.join(' and ')} not on PATH: apt-get install -y redis-server` : undefined, 'redis-server');
}

function onPath(binary: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && existsSync(path.join(dir, binary)));
}

export function describeWithBrowser(): jest.Describe {
  return requirement(process.env.PORTAL_TEST_NO_BROWSER, 'Chromium');
}

export function describeWithCompose(): jest.Describe {
  return requirement(process.env.PORTAL_TEST_NO_COMPOSE, 'Compose');
}

export function describeWithNginx(): jest.Describe {
  return requirement(process.env.PORTAL_TEST_NO_NGINX ?? (onPath('nginx') ? undefined : 'nginx not found: apt-get install -y nginx'), 'nginx');
}

export function describeWithPromtool(): jest.Describe {
  return requirement(process.env.PORTAL_TEST_NO_PROMTOOL ?? (onPath('promtool') ? undefined : 'promtool not found: apt-get install -y prometheus'), 'promtool');
}

/** The drain-under-load suite runs Debian's stress-ng beside the server; test-env.mjs installs it. */
export function describeWithStressNg(): jest.Describe {
  return requirement(
    process.env.PORTAL_TEST_NO_STRESS_NG ?? (onPath('stress-ng') ? undefined : 'stress-ng not found: apt-get install -y stress-ng'),
    'stress-ng',
  );
}

/** `docker compose` or `docker-compose`, split into the program and its leading arguments. */
export function composeCommand(): [string, ...string[]] {
  const [program, ...args] = (process.env.PORTAL_TEST_COMPOSE ?? 'docker-compose').split(' ');
  return [program ?? 'docker-compose', ...args];
}

export function testRedisUrl(): string {
  return process.env.PORTAL_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}

export function chromiumPath(): string {
  return process.env.PORTAL_TEST_CHROMIUM ?? '/usr/bin/chromium';
}

/** The edge suite runs Debian's varnishd with varnish-modules (xkey); test-env.mjs installs both. */
export function describeWithVarnish(): jest.Describe {
  return requirement(
    process.env.PORTAL_TEST_NO_VARNISH ?? (onPath('varnishd') ? undefined : 'varnishd not found: apt-get install -y varnish varnish-modules'),
    'varnishd',
  );
}

/** The set-up's apt-get tests hold apt's locks and run apt-get: root on a machine with apt-get (as CI's). */
export function describeWithAptGet(): jest.Describe {
  const missing = !onPath('apt-get')
    ? 'no apt-get on PATH (a Debian machine)'
    : process.getuid?.() !== 0
      ? 'not root: apt-get may not take its locks'
      : undefined;
  return requirement(missing, 'apt-get as root');
}
