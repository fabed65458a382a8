/**
 * What the benchmarks run besides Node, provided as the test set-up provides it (scripts/test-env.mjs: installed
 * with apt-get where this process may, otherwise one line saying what to install), checked before anything is
 * started, so a missing binary is said at once instead of failing a run half way with its processes left behind.
 */
import { ensureBinary, ensureVarnish } from '../test-env.mjs';

/** null when varnishd with xkey is usable (or BENCH_VARNISHD names the binary to use); else what to install. */
export function varnishMissing(): string | null {
  if (process.env.BENCH_VARNISHD) return null;
  const varnish = ensureVarnish();
  return varnish.ok ? null : varnish.why;
}

/** null when redis-server is on PATH; else what to install. */
export function redisServerMissing(): string | null {
  const redis = ensureBinary('redis-server', 'redis-server', "a Redis of the benchmark's own");
  return redis.ok ? null : redis.why;
}

/** The varnishd binary the benchmarks start (BENCH_VARNISHD, to point at another build; default on PATH). */
export function varnishBinary(): string {
  return process.env.BENCH_VARNISHD || 'varnishd';
}
