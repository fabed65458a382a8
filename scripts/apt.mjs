// Debian packages for the test set-up, the benchmarks and the day (test-env.mjs): one `apt-get update` and one
// `apt-get install` of everything missing. On a new machine unattended upgrades often hold apt's locks for minutes,
// and apt-get then fails at once; here each apt-get first waits for the locks to be let go (up to a bound,
// APT_LOCK_WAIT_S), and when the bound runs out the answer names the lock and the process holding it.
// Plain ESM with no import.meta: the benchmarks bundle it to CommonJS through test-env.mjs.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';

/** `apt-get update` writes the package lists under this lock. */
const LISTS_LOCKS = ['/var/lib/apt/lists/lock'];
/** `apt-get install` takes these (the frontend lock first, as unattended-upgrades and apt do). */
const INSTALL_LOCKS = ['/var/lib/dpkg/lock-frontend', '/var/lib/dpkg/lock', '/var/cache/apt/archives/lock', ...LISTS_LOCKS];
/** Unattended upgrades on a new machine take minutes; longer than this is worth a person's look. */
const DEFAULT_LOCK_WAIT_S = 900;
const POLL_MS = 250;
/** What apt-get prints when it could not take a lock (it waits itself only for the dpkg frontend lock). */
const LOCK_FAILURE = /Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock/;

/** @typedef {{ ok: true } | { ok: false, why: string }} Provided */
/** @typedef {{ file: string, pid: number, command: string }} Holder */

/** The bound on waiting for apt's locks, in seconds: APT_LOCK_WAIT_S, or 15 minutes. */
export function lockWaitSeconds() {
  const configured = Number(process.env.APT_LOCK_WAIT_S);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_LOCK_WAIT_S;
}

/** The kernel's `major:minor` of a stat's device, as /proc/locks writes it (hex, two digits at least). */
function kernelDevice(dev) {
  const major = Math.floor(dev / 256) & 0xfff;
  const minor = (dev & 0xff) | (Math.floor(dev / 4096) & 0xfff00);
  const hex = (value) => value.toString(16).padStart(2, '0');
  return `${hex(major)}:${hex(minor)}`;
}

function commandOf(pid) {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return command || readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return 'unknown command';
  }
}

/** Who holds a lock on each of `files` now (fcntl and flock locks alike), read from /proc/locks; [] elsewhere. */
export function lockHolders(files) {
  let table;
  try {
    table = readFileSync('/proc/locks', 'utf8');
  } catch {
    return [];
  }
  const byInode = new Map();
  for (const file of files) {
    try {
      const stat = statSync(file);
      byInode.set(`${kernelDevice(stat.dev)}:${stat.ino}`, file);
    } catch {
      // A lock file that is not there is held by nobody.
    }
  }
  const holders = [];
  for (const line of table.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 1234 fe:00:402117 0 EOF"; lines with "->" are processes blocked on a lock.
    const fields = line.trim().split(/\s+/);
    if (fields[1] === '->') continue;
    const file = byInode.get(fields[5]);
    const pid = Number(fields[4]);
    if (file && pid > 0 && !holders.some((holder) => holder.file === file && holder.pid === pid)) holders.push({ file, pid, command: commandOf(pid) });
  }
  return holders;
}

/** "/var/lib/dpkg/lock-frontend held by process 812 (/usr/bin/python3 /usr/bin/unattended-upgrade)". */
export function describeHolders(holders) {
  return holders.map(({ file, pid, command }) => `${file} held by process ${pid} (${command})`).join('; ');
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves with [] once no one holds `files`, or with the holders when `deadline` passes first. */
async function untilFree(files, deadline, log) {
  let told = false;
  for (;;) {
    const holders = lockHolders(files);
    if (holders.length === 0 || Date.now() >= deadline) return holders;
    if (!told) log(`waiting for ${describeHolders(holders)} (up to ${Math.ceil((deadline - Date.now()) / 1000)} s more)`);
    told = true;
    await pause(POLL_MS);
  }
}

function runAptGet(args) {
  return new Promise((resolve) => {
    // RUNLEVEL=1: a package's postinst starts no system-wide service (nginx on port 80, a second redis-server);
    // what the tests and benchmarks run they start themselves.
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' };
    execFile('apt-get', args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => resolve({ ok: !error, stderr: String(stderr) }));
  });
}

function lastLines(text) {
  return text.trim().split('\n').slice(-3).join(' / ') || 'no message';
}

/** One apt-get run that waits for `locks`, and runs again when it lost a race for one, until `deadline`. */
async function aptGetWaiting(args, locks, deadline, waitS, log) {
  for (;;) {
    const held = await untilFree(locks, deadline, log);
    if (held.length > 0) return { ok: false, why: `apt-get ${args[0]}: still ${describeHolders(held)} after ${waitS} s (APT_LOCK_WAIT_S)` };
    const remaining = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    const run = await runAptGet(['-o', `DPkg::Lock::Timeout=${remaining}`, ...args]);
    if (run.ok) return { ok: true };
    const lost = LOCK_FAILURE.test(run.stderr);
    if (!lost || Date.now() >= deadline) {
      const holders = lost ? describeHolders(lockHolders(locks)) : '';
      return { ok: false, why: `apt-get ${args[0]} failed: ${lastLines(run.stderr)}${holders ? ` (${holders})` : ''}` };
    }
    // A lock taken between the look and the run, by a process /proc/locks did not show: look again shortly.
    if (lockHolders(locks).length === 0) await pause(POLL_MS * 4);
  }
}

function hasAptGet() {
  try {
    execFileSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs `packages` (what is missing: one update, one install, never upgrading what is installed), waiting for
 * apt's locks up to `lockWaitS`. Resolves with why not, and the command to run, when it cannot.
 * @param {readonly string[]} packages
 * @param {{ log?: (line: string) => void, lockWaitS?: number }} [options]
 * @returns {Promise<Provided>}
 */
export async function aptInstall(packages, { log = () => undefined, lockWaitS = lockWaitSeconds() } = {}) {
  const wanted = [...new Set(packages)];
  if (wanted.length === 0) return { ok: true };
  const command = `apt-get update && apt-get install -y ${wanted.join(' ')}`;
  if (!hasAptGet()) return { ok: false, why: `no apt-get on this machine: install the Debian packages ${wanted.join(', ')}` };
  if (process.getuid?.() !== 0) return { ok: false, why: `not root, so not installing: run ${command}` };
  const deadline = Date.now() + lockWaitS * 1000;
  log(`installing ${wanted.join(' ')} (apt-get update, then one apt-get install)…`);
  const update = await aptGetWaiting(['update', '-qq'], LISTS_LOCKS, deadline, lockWaitS, log);
  if (!update.ok) return { ok: false, why: `${update.why}; then run ${command}` };
  const install = await aptGetWaiting(['install', '-y', '-qq', '--no-upgrade', ...wanted], INSTALL_LOCKS, deadline, lockWaitS, log);
  if (!install.ok) return { ok: false, why: `${install.why}; then run ${command}` };
  return { ok: true };
}
