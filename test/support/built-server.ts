/**
 * The built server (dist/server/main.cjs) as the image runs it, in a process of its own, for the suites that
 * signal it (SIGTERM drains) or read its start-up; and keep-alive clients that send through its drain and count
 * what became of each request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';

export const BUILT_SERVER = path.resolve(__dirname, '../../dist/server/main.cjs');

/** What every log line may say; a suite reads its own fields through the type parameter. */
export interface ServerLogLine {
  level?: number;
  msg?: string;
  url?: string;
}

export interface BuiltServer<Line extends ServerLogLine> {
  child: ChildProcess;
  url: string;
  exit: Promise<number | null>;
  /** The log lines written up to and after listening (appended as they come). */
  lines: Line[];
}

/** Starts it on a free loopback port with only PATH and `env` (and Node's own `nodeArgs`); resolves once it logs that it listens. */
export function startBuiltServer<Line extends ServerLogLine = ServerLogLine>(env: Record<string, string>, nodeArgs: string[] = []): Promise<BuiltServer<Line>> {
  const child = spawn(process.execPath, [...nodeArgs, BUILT_SERVER], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // Generous: on a machine shared with other runs (or beside stress-ng) a process may take long to start.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('server did not start in 60 s'));
    }, 60_000);
    const seen: Line[] = [];
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      const entry = JSON.parse(text) as Line;
      seen.push(entry);
      if (entry.url && entry.msg?.startsWith('portal listening')) {
        clearTimeout(timer);
        resolve({ child, url: entry.url, exit, lines: seen });
      }
    });
    void exit.then((code) => reject(new Error(`server exited early with ${code}`)));
  });
}

export interface KeepAliveFigures {
  answered: number;
  /** Answers that said Connection: close (sent while draining). */
  closing: number;
  /** Connection attempts refused: the listener was gone, nothing had been sent. */
  refused: number;
  /** Requests sent that got no answer: the error, whether the connection was a reused one, and `when()`. */
  lost: string[];
}

export interface KeepAliveOptions {
  /** Asked before each request (a balancer stops sending once readiness fails); default: until refused. */
  sending?: () => boolean;
  /** Added to a lost request's line, e.g. how long after the signal it was lost. */
  when?: () => string;
}

/** `count` clients on keep-alive connections, each sending its next request when the last is answered, until refused. */
export function keepAliveClients(url: string, count: number, options: KeepAliveOptions = {}): { figures: KeepAliveFigures; done: Promise<KeepAliveFigures> } {
  const { sending = () => true, when = () => '' } = options;
  const figures: KeepAliveFigures = { answered: 0, closing: 0, refused: 0, lost: [] };
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const lost = (error: NodeJS.ErrnoException, req: http.ClientRequest, where: string) =>
    figures.lost.push(`${error.code ?? error.message} (${where}reused=${req.reusedSocket}${when()})`);
  const once = () =>
    new Promise<'ok' | 'refused' | 'lost'>((resolve) => {
      const req = http.get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          figures.answered += 1;
          if (res.headers.connection === 'close') figures.closing += 1;
          resolve('ok');
        });
        res.on('error', (error: NodeJS.ErrnoException) => {
          lost(error, req, 'body, ');
          resolve('lost');
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') {
          figures.refused += 1;
          resolve('refused');
          return;
        }
        lost(error, req, '');
        resolve('lost');
      });
    });
  const client = async () => {
    while (sending()) if ((await once()) === 'refused') return;
  };
  const done = Promise.all(Array.from({ length: count }, client)).then(() => {
    agent.destroy();
    return figures;
  });
  return { figures, done };
}
