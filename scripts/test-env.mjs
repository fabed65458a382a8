// What the test suites need besides node_modules: a Redis server, Debian's Chromium, Compose, nginx (the deploy
// suite checks deploy/nginx.conf with it), promtool (Debian's prometheus package: the alert and recording rules),
// varnishd with varnish-modules' xkey (the edge suite runs deploy/varnish/default.vcl) and stress-ng (the drain
// suite sends SIGTERM beside it). The benchmarks and the day (scripts/bench/requirements.ts) ask it for varnishd
// and redis-server. Checks them all, then installs whatever is missing at once (apt.mjs: one apt-get update, one
// apt-get install, waiting for apt's locks) when this machine can (root, apt-get), and otherwise says in one line
// what to install. Under CI=true a missing piece is an error, because nothing may skip there.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aptInstall } from './apt.mjs';

// The one PING probe (CommonJS, shared with jest's global setup and the test helpers). Imported, not required
// through import.meta: the benchmarks bundle this module to CommonJS (scripts/bench/requirements.ts).
import redisPing from './redis-ping.cjs';

const { redisAnswers: ping } = redisPing;

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const REDIS_HOST = '127.0.0.1';
const REDIS_PORT = 6379;

function log(line) {
  console.log(`[test-env] ${line}`);
}

function commandExists(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function redisAnswers(host = REDIS_HOST, port = REDIS_PORT, timeoutMs = 500) {
  return ping({ host, port, timeoutMs });
}

async function waitForRedis(port, attempts = 50) {
  for (let i = 0; i < attempts; i += 1) {
    if (await redisAnswers(REDIS_HOST, port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

const CJK_FONT_PACKAGE = 'fonts-noto-cjk';
const OK = { ok: true };

/**
 * A piece of the environment: whether it is usable now (no side effects) and the Debian packages that provide
 * it. Every piece is checked first and everything missing is installed at once (apt.mjs), then checked again.
 * @typedef {{ ok: true, command?: string } | { ok: false, why: string }} Provided
 * @typedef {{ check(): Provided, packages(): string[] }} Piece
 */

/** Chinese pages render as empty boxes without a CJK font; the screenshots and the look checks need one. */
const cjkFont = {
  check() {
    if (!commandExists('dpkg-query')) return OK;
    try {
      execFileSync('dpkg-query', ['-W', '-f=${Status}', CJK_FONT_PACKAGE], { stdio: 'pipe' });
      return OK;
    } catch {
      return { ok: false, why: `screenshots need a CJK font: apt-get install -y ${CJK_FONT_PACKAGE}` };
    }
  },
  packages: () => [CJK_FONT_PACKAGE],
};

const chromium = {
  check: () => (existsSync(CHROMIUM_PATH) ? OK : { ok: false, why: `browser suites need Debian's Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium` }),
  packages: () => ['chromium'],
};

function composeAnswers(command, args) {
  try {
    execFileSync(command, [...args, 'version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The deploy suite checks docker-compose.yml with Compose itself (`config`, which needs no Docker engine):
 * the `docker compose` plugin when present, else Debian's docker-compose.
 */
const compose = {
  check() {
    if (commandExists('docker') && composeAnswers('docker', ['compose'])) return { ok: true, command: 'docker compose' };
    if (commandExists('docker-compose') && composeAnswers('docker-compose', [])) return { ok: true, command: 'docker-compose' };
    return { ok: false, why: 'the deploy suite needs Compose to check docker-compose.yml: apt-get install -y docker-compose' };
  },
  packages: () => ['docker-compose'],
};

/** A Debian package providing `binary`, which `why` needs. */
export function binaryPiece(binary, pkg, why) {
  return {
    check: () => (commandExists(binary) ? OK : { ok: false, why: `${why} needs ${binary}: apt-get install -y ${pkg}` }),
    packages: () => [pkg],
  };
}

/** Whether varnishd compiles a VCL importing xkey: the binary works here and varnish-modules is installed. */
function xkeyCompiles() {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-xkey-'));
  try {
    writeFileSync(path.join(dir, 'check.vcl'), 'vcl 4.1;\nimport xkey;\nbackend none_at_all none;\n');
    execFileSync('varnishd', ['-C', '-j', 'none', '-n', dir, '-f', path.join(dir, 'check.vcl')], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** varnishd (Debian's varnish) and the xkey vmod (varnish-modules) the shipped VCL imports, which `why` needs. */
export function varnishPiece(why) {
  return {
    check: () =>
      commandExists('varnishd') && xkeyCompiles() ? OK : { ok: false, why: `${why} needs varnishd and xkey: apt-get install -y varnish varnish-modules` },
    packages: () => (commandExists('varnishd') ? ['varnish-modules'] : ['varnish', 'varnish-modules']),
  };
}

/** A Redis answering on 127.0.0.1:6379 (`up`), or redis-server to start one with. */
function redisPiece(up) {
  const binary = binaryPiece('redis-server', 'redis-server', 'the Redis suites');
  return { check: () => (up ? OK : binary.check()), packages: binary.packages };
}

/**
 * Checks every piece of `pieces`, installs the packages of those missing with one apt-get update and one apt-get
 * install (when this process may: root, apt-get; waiting for apt's locks, apt.mjs), and answers each piece's check
 * afterwards, under its name.
 * @template {string} Name
 * @param {Record<Name, Piece>} pieces
 * @returns {Promise<Record<Name, Provided>>}
 */
export async function provide(pieces) {
  const missing = Object.values(pieces).filter((piece) => !piece.check().ok);
  if (missing.length > 0) {
    const installed = await aptInstall(
      missing.flatMap((piece) => piece.packages()),
      { log },
    );
    if (!installed.ok) log(installed.why);
  }
  return Object.fromEntries(Object.entries(pieces).map(([name, piece]) => [name, piece.check()]));
}

async function startRedis() {
  log(`no Redis answers on ${REDIS_HOST}:${REDIS_PORT}; starting redis-server there for this run`);
  const child = spawn('redis-server', ['--bind', REDIS_HOST, '--port', String(REDIS_PORT), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  if (await waitForRedis(REDIS_PORT)) return { ok: true, started: child };
  child.kill('SIGTERM');
  return { ok: false, started: null, why: `redis-server did not answer on ${REDIS_HOST}:${REDIS_PORT}` };
}

/** Makes the environment ready; returns the env for the test runner and a function that undoes what it started. */
export async function prepareTestEnv() {
  const ci = process.env.CI === 'true';
  const env = { ...process.env, PORTAL_TEST_REDIS_URL: `redis://${REDIS_HOST}:${REDIS_PORT}` };
  const redisUp = await redisAnswers();
  const provided = await provide({
    browser: chromium,
    font: cjkFont,
    redis: redisPiece(redisUp),
    compose,
    nginx: binaryPiece('nginx', 'nginx', 'the deploy suite (nginx -t, /metrics refused through nginx)'),
    promtool: binaryPiece('promtool', 'prometheus', 'the monitoring suite (promtool check rules)'),
    varnish: varnishPiece('the edge suite (deploy/varnish/default.vcl)'),
    stressNg: binaryPiece('stress-ng', 'stress-ng', 'the drain-under-load suite (SIGTERM beside stress-ng --cpu 4)'),
  });
  const { browser, font, compose: composed, nginx, promtool, varnish, stressNg } = provided;
  if (!font.ok) log(font.why);
  const redis = !provided.redis.ok || redisUp ? { ...provided.redis, started: null } : await startRedis();
  const missing = [browser, redis, composed, nginx, promtool, varnish, stressNg].filter((part) => !part.ok).map((part) => part.why);
  if (ci && missing.length > 0) {
    for (const why of missing) log(`CI=true and ${why}`);
    throw new Error('test environment incomplete under CI=true');
  }
  if (browser.ok) env.PORTAL_TEST_CHROMIUM = CHROMIUM_PATH;
  else env.PORTAL_TEST_NO_BROWSER = browser.why;
  if (!redis.ok) env.PORTAL_TEST_NO_REDIS = redis.why;
  if (composed.ok) env.PORTAL_TEST_COMPOSE = composed.command;
  else env.PORTAL_TEST_NO_COMPOSE = composed.why;
  if (!nginx.ok) env.PORTAL_TEST_NO_NGINX = nginx.why;
  if (!promtool.ok) env.PORTAL_TEST_NO_PROMTOOL = promtool.why;
  if (!varnish.ok) env.PORTAL_TEST_NO_VARNISH = varnish.why;
  if (!stressNg.ok) env.PORTAL_TEST_NO_STRESS_NG = stressNg.why;
  for (const why of missing) log(`will skip: ${why}`);
  const stop = () => {
    if (redis.started && redis.started.exitCode === null) redis.started.kill('SIGTERM');
  };
  return { env, stop };
}
