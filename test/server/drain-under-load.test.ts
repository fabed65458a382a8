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
import { startReferenceApi, type RunningReferenceApi } from '../../scripts/reference-api/server';
import { queuedConnections } from '../../server/accept-queue';
import { keepAliveClients, startBuiltServer } from '../support/built-server';
import { describeWithStressNg } from '../support/requirements';

const CLIENTS = 40;
const ROUNDS = 3;

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
      const server = await startBuiltServer({ UPSTREAM_URL: upstream.url, SHUTDOWN_DELAY_MS: '1000' });
      try {
        let signalledAt = 0;
        const port = Number(new URL(server.url).port);
        const clients = keepAliveClients(`${server.url}/about`, CLIENTS, {
          when: () => (signalledAt > 0 ? `, ${Date.now() - signalledAt} ms after the signal` : ''),
        });
        // The signal lands while the clients' connections are still being accepted, three answers a client on average.
        await until(() => clients.figures.answered >= 3 * CLIENTS, 'first answers');
        const queuedAtSignal = queuedConnections(port) ?? 0;
        signalledAt = Date.now();
        server.child.kill('SIGTERM');
        const figures = await clients.done;
        const code = await server.exit;
        console.log(`drain beside stress-ng: ${JSON.stringify({ ...figures, queuedAtSignal })}`);
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
