/**
 * Draining under CPU load (issue 27, item 10): the built server as the image runs it, `stress-ng --cpu 4` beside
 * it (twice this machine's cores), SHUTDOWN_DELAY_MS=1000, and 40 clients on kept-alive connections sending
 * through SIGTERM. Under that load Node accepts slowly: connections a client opened before the signal were seen
 * waiting in the kernel's accept queue for seconds, and closing the listener reset them (ECONNRESET on a
 * request the client had already sent). The portal closes its listener only once that queue is empty
 * (server/accept-queue.ts), so no request is lost: every one is answered, or refused (ECONNREFUSED: nothing was
 * sent, a client or balancer retries it elsewhere) once the listener is gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { startReferenceApi, type RunningReferenceApi } from '../../scripts/reference-api/server';
import { queuedConnections } from '../../server/accept-queue';
import { describeWithStressNg } from '../support/requirements';

const SERVER = path.resolve(__dirname, '../../dist/server/main.cjs');
const CLIENTS = 40;
const ROUNDS = 3;

interface Started {
  child: ChildProcess;
  url: string;
  exit: Promise<number | null>;
}

function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // Generous: under stress-ng a process takes long to start.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('server did not start in 60 s'));
    }, 60_000);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as { url?: string; msg?: string };
      if (entry.url && entry.msg?.startsWith('portal listening')) {
        clearTimeout(timer);
        resolve({ child, url: entry.url, exit });
      }
    });
    void exit.then((code) => reject(new Error(`server exited early with ${code}`)));
  });
}

interface Figures {
  answered: number;
  /** Answers that said Connection: close (the listener was closed). */
  closing: number;
  /** Connection attempts refused: the listener was gone, nothing had been sent. */
  refused: number;
  /** Requests sent that got no answer: error, whether on a reused connection, ms after the signal. */
  lost: string[];
  /** The most connections seen queued unaccepted on the server's port around the signal. */
  queuedAtSignal: number;
}

/** `count` clients on keep-alive connections, each sending its next request when the last is answered, until refused. */
function keepAliveClients(url: string, count: number, signalledAt: () => number): { figures: Figures; done: Promise<Figures> } {
  const figures: Figures = { answered: 0, closing: 0, refused: 0, lost: [], queuedAtSignal: 0 };
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const since = () => (signalledAt() > 0 ? Date.now() - signalledAt() : -1);
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
          figures.lost.push(`${error.code ?? error.message} (body, reused=${req.reusedSocket}, ${since()} ms)`);
          resolve('lost');
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') {
          figures.refused += 1;
          resolve('refused');
          return;
        }
        figures.lost.push(`${error.code ?? error.message} (reused=${req.reusedSocket}, ${since()} ms)`);
        resolve('lost');
      });
    });
  const client = async () => {
    while ((await once()) !== 'refused');
  };
  const done = Promise.all(Array.from({ length: count }, client)).then(() => {
    agent.destroy();
    return figures;
  });
  return { figures, done };
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeWithStressNg()('draining beside stress-ng --cpu 4', () => {
  let upstream: RunningReferenceApi;
  let stress: ChildProcess;

  beforeAll(async () => {
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    stress = spawn('stress-ng', ['--cpu', '4', '--quiet'], { stdio: 'ignore' });
    await until(() => stress.pid !== undefined, 'stress-ng started');
  });

  afterAll(async () => {
    // By PID: its workers are its children and stop with it.
    if (stress.exitCode === null) {
      const stopped = new Promise((resolve) => stress.once('exit', resolve));
      stress.kill('SIGTERM');
      await stopped;
    }
    await upstream.close();
  });

  it.each(Array.from({ length: ROUNDS }, (_, round) => round + 1))(
    'round %i: 40 keep-alive clients sending through SIGTERM (SHUTDOWN_DELAY_MS=1000) lose no request',
    async () => {
      const server = await startServer({ UPSTREAM_URL: upstream.url, SHUTDOWN_DELAY_MS: '1000' });
      try {
        let signalledAt = 0;
        const port = Number(new URL(server.url).port);
        const clients = keepAliveClients(`${server.url}/about`, CLIENTS, () => signalledAt);
        // The signal lands while the clients' connections are still being accepted, three answers a client on average.
        await until(() => clients.figures.answered >= 3 * CLIENTS, 'first answers');
        clients.figures.queuedAtSignal = queuedConnections(port) ?? 0;
        signalledAt = Date.now();
        server.child.kill('SIGTERM');
        const figures = await clients.done;
        const code = await server.exit;
        console.log(`drain beside stress-ng: ${JSON.stringify(figures)}`);
        expect(figures.lost).toEqual([]);
        expect(code).toBe(0);
        // Every client was answered until the listener closed, then refused: none was left without an answer.
        expect(figures.refused).toBe(CLIENTS);
        expect(figures.closing).toBeGreaterThan(0);
      } finally {
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
      }
    },
    180_000,
  );
});
