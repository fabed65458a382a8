// What the test suites need besides node_modules: a Redis server, Debian's Chromium, Compose, nginx (the deploy
// suite checks deploy/nginx.conf with it), promtool (Debian's prometheus package: the alert and recording rules),
// varnishd with varnish-modules' xkey (the edge suite runs deploy/varnish/default.vcl) and stress-ng (the drain
// suite sends SIGTERM beside it). The benchmarks (scripts/bench/requirements.ts) ask it for varnishd and redis-server. Provides them when this
// machine can (apt-get as root, a redis-server binary), and otherwise says in one line what to install. Under
// CI=true a missing piece is an error, because nothing may skip there.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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

function aptInstall(pkg) {
  if (process.getuid?.() !== 0 || !commandExists('apt-get')) return false;
  log(`installing Debian package ${pkg} (apt-get)…`);
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-qq', pkg], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return true;
  } catch (error) {
    log(`apt-get install ${pkg} failed: ${error instanceof Error ? error.message : error}`);
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

function cjkFontInstalled() {
  try {
    execFileSync('dpkg-query', ['-W', '-f=${Status}', CJK_FONT_PACKAGE], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Chinese pages render as empty boxes without a CJK font; the screenshots and the look checks need one. */
function ensureCjkFont() {
  if (!commandExists('dpkg-query') || cjkFontInstalled()) return;
  if (!aptInstall(CJK_FONT_PACKAGE)) log(`screenshots need a CJK font: apt-get install -y ${CJK_FONT_PACKAGE}`);
}

function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) {
    ensureCjkFont();
    return { ok: true };
  }
  if (aptInstall('chromium') && existsSync(CHROMIUM_PATH)) {
    ensureCjkFont();
    return { ok: true };
  }
  return { ok: false, why: `browser suites need Debian's Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium` };
}

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
function ensureCompose() {
  if (commandExists('docker') && composeAnswers('docker', ['compose'])) return { ok: true, command: 'docker compose' };
  if (!commandExists('docker-compose')) aptInstall('docker-compose');
  if (commandExists('docker-compose') && composeAnswers('docker-compose', [])) return { ok: true, command: 'docker-compose' };
  return { ok: false, why: 'the deploy suite needs Compose to check docker-compose.yml: apt-get install -y docker-compose' };
}

/** A Debian package providing `binary`: present, or installed with apt-get when this process may. */
export function ensureBinary(binary, pkg, why) {
  if (commandExists(binary)) return { ok: true };
  if (aptInstall(pkg) && commandExists(binary)) return { ok: true };
  return { ok: false, why: `${why} needs ${binary}: apt-get install -y ${pkg}` };
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

/** varnishd (Debian's varnish) and the xkey vmod (varnish-modules), which the VCL imports. */
export function ensureVarnish() {
  if (!commandExists('varnishd')) aptInstall('varnish');
  if (commandExists('varnishd') && !xkeyCompiles()) aptInstall('varnish-modules');
  if (commandExists('varnishd') && xkeyCompiles()) return { ok: true };
  return { ok: false, why: 'the edge suite (deploy/varnish/default.vcl) needs varnishd and xkey: apt-get install -y varnish varnish-modules' };
}

async function ensureRedis() {
  if (await redisAnswers()) return { ok: true, started: null };
  if (!commandExists('redis-server')) aptInstall('redis-server');
  if (!commandExists('redis-server')) {
    return { ok: false, started: null, why: 'Redis suites need redis-server: apt-get install -y redis-server' };
  }
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
  const chromium = ensureChromium();
  const redis = await ensureRedis();
  const compose = ensureCompose();
  const nginx = ensureBinary('nginx', 'nginx', 'the deploy suite (nginx -t, /metrics refused through nginx)');
  const promtool = ensureBinary('promtool', 'prometheus', 'the monitoring suite (promtool check rules)');
  const varnish = ensureVarnish();
  const stressNg = ensureBinary('stress-ng', 'stress-ng', 'the drain-under-load suite (SIGTERM beside stress-ng --cpu 4)');
  const missing = [chromium, redis, compose, nginx, promtool, varnish, stressNg].filter((part) => !part.ok).map((part) => part.why);
  if (ci && missing.length > 0) {
    for (const why of missing) log(`CI=true and ${why}`);
    throw new Error('test environment incomplete under CI=true');
  }
  if (chromium.ok) env.PORTAL_TEST_CHROMIUM = CHROMIUM_PATH;
  else env.PORTAL_TEST_NO_BROWSER = chromium.why;
  if (!redis.ok) env.PORTAL_TEST_NO_REDIS = redis.why;
  if (compose.ok) env.PORTAL_TEST_COMPOSE = compose.command;
  else env.PORTAL_TEST_NO_COMPOSE = compose.why;
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
