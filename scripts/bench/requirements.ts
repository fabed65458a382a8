/**
 * What the benchmarks and the day run besides Node, provided as the test set-up provides it (scripts/test-env.mjs:
 * everything missing installed at once with apt-get where this process may, waiting for apt's locks; otherwise one
 * line saying what to install), checked before anything is started, so a missing binary is said at once instead
 * of failing a run half way with its processes left behind.
 */
import { binaryPiece, provide, varnishPiece, type Piece, type Provided } from '../test-env.mjs';

interface Requirements {
  varnish: string | null;
  redisServer: string | null;
  nginx: string | null;
  prometheus: string | null;
  stressNg: string | null;
}

/** BENCH_VARNISHD names the binary: nothing to check or install; its start says whether it runs. */
const CHOSEN_VARNISHD: Piece = { check: () => ({ ok: true }), packages: () => [] };

function whyMissing(answer: Provided): string | null {
  return answer.ok ? null : answer.why;
}

let requirements: Promise<Requirements> | null = null;

/** varnishd with xkey, redis-server, nginx, Prometheus and stress-ng, provided in one go the first time any is asked for. */
function provided(): Promise<Requirements> {
  requirements ??= provide({
    varnish: process.env.BENCH_VARNISHD ? CHOSEN_VARNISHD : varnishPiece('the edge in front of the portals (deploy/varnish/default.vcl)'),
    redisServer: binaryPiece('redis-server', 'redis-server', "a Redis of the benchmark's own"),
    nginx: binaryPiece('nginx', 'nginx-light', 'the static-file baseline'),
    prometheus: binaryPiece('prometheus', 'prometheus', 'the day with faults, to evaluate the shipped alert rules'),
    stressNg: binaryPiece('stress-ng', 'stress-ng', 'the outage-window row beside CPU load (BENCH_OUTAGE_STRESS=1)'),
  }).then((answers) => ({
    varnish: whyMissing(answers.varnish),
    redisServer: whyMissing(answers.redisServer),
    nginx: whyMissing(answers.nginx),
    prometheus: whyMissing(answers.prometheus),
    stressNg: whyMissing(answers.stressNg),
  }));
  return requirements;
}

/** null when varnishd with xkey is usable (or BENCH_VARNISHD names the binary to use); else what to install. */
export async function varnishMissing(): Promise<string | null> {
  return (await provided()).varnish;
}

/** null when redis-server is on PATH; else what to install. */
export async function redisServerMissing(): Promise<string | null> {
  return (await provided()).redisServer;
}

/** null when nginx is on PATH; else what to install. */
export async function nginxMissing(): Promise<string | null> {
  return (await provided()).nginx;
}

/** null when prometheus is on PATH; else what to install. */
export async function prometheusMissing(): Promise<string | null> {
  return (await provided()).prometheus;
}

/** null when stress-ng is on PATH; else what to install. */
export async function stressNgMissing(): Promise<string | null> {
  return (await provided()).stressNg;
}

/** The varnishd binary the benchmarks start (BENCH_VARNISHD, to point at another build; default on PATH). */
export function varnishBinary(): string {
  return process.env.BENCH_VARNISHD || 'varnishd';
}
