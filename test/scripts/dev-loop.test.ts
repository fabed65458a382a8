/**
 * The development loop, in a temporary copy of the tree (never the worktree itself): `npm start` rebuilds when a
 * source is newer than the build and serves the edit; SIGTERM sent to the `npm start` process stops the server
 * (no node left behind); `npm run dev` serves an edit after its watcher rebuilds and restarts the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port';

const ROOT = path.resolve(__dirname, '../..');
const FOOTER = 'shared/ui/blocks/Footer.tsx';

function copyTree(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-dev-'));
  for (const entry of ['client', 'server', 'shared', 'scripts', 'public', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  // The built worktree's dist/ as a start: the copy then holds a build older than any edit made to it.
  cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Rewrites the footer's copyright line with a marker, so the rendered page shows which build it came from. */
function editFooter(dir: string, marker: string): void {
  const file = path.join(dir, FOOTER);
  const source = readFileSync(file, 'utf8');
  const edited = source.replace(/版权所有(?: [^\n<{]*)?/, `版权所有 ${marker}`);
  if (edited === source) throw new Error(`${FOOTER} has no copyright line to edit`);
  writeFileSync(file, edited);
}

interface Running {
  child: ChildProcess;
  output: () => string;
}

function run(command: string, args: string[], dir: string, port: number): Running {
  let output = '';
  const child = spawn(command, args, {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', UPSTREAM_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** `said`: what the process under test has printed, for the error of a wait that timed out (its last lines). */
async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 90_000, said = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${said() ? `; it printed last:\n${said().slice(-4000)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const homeText = (port: number) => fetch(`http://127.0.0.1:${port}/about`).then((res) => res.text());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** PIDs of the processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function stop(running: Running): Promise<void> {
  const { child } = running;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('the development loop (a temporary copy of the tree)', () => {
  let dir: string;
  beforeAll(() => {
    dir = copyTree();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('npm start rebuilds when a source is newer than the build, serves the edit, and stops on SIGTERM to npm', async () => {
    editFooter(dir, '启动前的修改');
    const port = await freePort();
    const started = run('npm', ['start'], dir, port);
    try {
      const page = await until(
        () => homeText(port),
        (text) => text.includes('版权所有'),
        'npm start to serve /about',
      );
      expect(page).toContain('启动前的修改');
      expect(started.output()).toMatch(/shared\/ui\/blocks\/Footer\.tsx is newer than the build; rebuilding/);

      // What a supervisor does: SIGTERM to the process it started (npm). The server must drain and exit.
      const servers = childrenOf(started.child.pid!);
      expect(servers.length).toBeGreaterThan(0);
      started.child.kill('SIGTERM');
      for (const pid of servers)
        await until(
          async () => alive(pid),
          (up) => !up,
          `server ${pid} to exit`,
          30_000,
        );
      await until(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            () => 'up',
            () => 'down',
          ),
        (state) => state === 'down',
        'the port to close',
        30_000,
      );
      expect(started.output()).toMatch(/"msg":"draining"/);
    } finally {
      await stop(started);
    }
  }, 240_000);

  it('npm run dev rebuilds on an edit and restarts the server, which then serves it', async () => {
    const port = await freePort();
    const dev = run('npm', ['run', 'dev'], dir, port);
    try {
      await until(
        () => homeText(port),
        (text) => text.includes('版权所有'),
        'npm run dev to serve /about',
      );
      editFooter(dir, '开发循环中的修改');
      const page = await until(
        () => homeText(port),
        (text) => text.includes('开发循环中的修改'),
        'the edit to be served',
        90_000,
        dev.output,
      );
      expect(page).toContain('开发循环中的修改');
      expect(dev.output()).toMatch(/\[dev\] restarting the server/);
    } finally {
      const helpers = childrenOf(dev.child.pid!);
      await stop(dev);
      for (const pid of helpers)
        await until(
          async () => alive(pid),
          (up) => !up,
          `dev process ${pid} to exit`,
          30_000,
        );
    }
  }, 240_000);
});
