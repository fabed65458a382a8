/**
 * Every process a benchmark starts, so a failure at any point stops them all: an exception, SIGINT or SIGTERM, a
 * `spawn` that fails (ENOENT: the binary is not installed) or a child that dies on its own. Before this a bench
 * that failed half way left its portals, bare servers and nginx running (issue 39: `spawn varnishd ENOENT` left
 * seven). Children are ended by their PID, never by name; set BENCH_PID_LOG=1 to have each PID printed on stderr
 * as it is started (the test that no process is left behind reads them).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * A tool this machine lacks: the run stops with this one line (what to install), not a stack trace, since
 * nothing in the code is wrong.
 */
export class MissingTool extends Error {
  override name = 'MissingTool';
}

export interface Child {
  name: string;
  process: ChildProcess;
  /** Ends it by its PID: `signal`, then SIGKILL if it is still there after 10 s; the exit is then expected. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<Child>();
let failWith: ((error: Error) => void) | null = null;
/** Settles when a child fails (could not start, or exited while nobody stopped it): the run then stops. */
const failed = new Promise<never>((_resolve, reject) => {
  failWith = reject;
});
failed.catch(() => undefined);

function ended(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * `command` with `args`, tracked until it exits; a failed spawn fails the run, and so does an exit nobody asked
 * for, unless `runsToEnd` (a load generator, which exits when done and reports its own code).
 */
export function spawnChild(name: string, command: string, args: readonly string[], options: SpawnOptions, runsToEnd = false): Child {
  const child = spawn(command, args, options);
  let stopping = runsToEnd;
  const entry: Child = {
    name,
    process: child,
    stop: (signal = 'SIGTERM') => {
      stopping = true;
      return stopProcess(child, signal);
    },
  };
  running.add(entry);
  child.once('error', (error) => {
    running.delete(entry);
    const why = `${name} (${command}) could not be started: ${error.message}`;
    failWith?.('code' in error && error.code === 'ENOENT' ? new MissingTool(`${why}: not installed`) : new Error(why));
  });
  child.once('exit', (code, signal) => {
    running.delete(entry);
    if (!stopping) failWith?.(new Error(`${name} (pid ${child.pid}) exited on its own: ${signal ?? `code ${code}`}`));
  });
  if (process.env.BENCH_PID_LOG === '1' && child.pid !== undefined) process.stderr.write(`[bench] started ${name} pid ${child.pid}\n`);
  return entry;
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (ended(child) || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

/** Stops every child still running, the last started first (the edge before the portals behind it). */
export async function stopAllChildren(): Promise<void> {
  for (const child of [...running].reverse()) await child.stop();
}

/** Whatever is left when the process exits anyway (process.exit, an uncaught exception): SIGKILL, synchronously. */
function killLeftovers(): void {
  for (const { process: child } of running) if (!ended(child)) child.kill('SIGKILL');
}

/** A bug's stack trace; for a missing tool or an interruption, only what happened and what to do. */
function failure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof MissingTool || 'signal' in error) return error.message;
  return error.stack ?? error.message;
}

/**
 * Runs a benchmark's `main`: it ends at the first of its own end, a child's failure, SIGINT or SIGTERM; every
 * child is stopped then, whichever it was, and the exit code says whether it failed (1; 130 on a signal).
 */
export async function runStoppingChildren(what: string, main: () => Promise<number | void>): Promise<void> {
  process.once('exit', killLeftovers);
  const interrupted = new Promise<never>((_resolve, reject) => {
    const onSignal = (signal: NodeJS.Signals) => reject(Object.assign(new Error(`${what} interrupted by ${signal}`), { signal }));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  interrupted.catch(() => undefined);
  try {
    const code = await Promise.race([main(), failed, interrupted]);
    process.exitCode = typeof code === 'number' ? code : 0;
  } catch (error: unknown) {
    process.stderr.write(`${what} failed: ${failure(error)}\n`);
    process.exitCode = error instanceof Error && 'signal' in error ? 130 : 1;
  } finally {
    await stopAllChildren();
  }
  // Timers, agents and the in-process reference API would keep the loop alive after a failure half way.
  process.exit();
}
