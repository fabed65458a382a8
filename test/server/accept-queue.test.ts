/** What the kernel holds for a listening port, unaccepted: read from the /proc tables, and from a real listener. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { queuedConnections, queuedIn } from '../../server/accept-queue';
import { listen } from '../../server/http-server';
import { createLogger } from '../../server/platform/logger';
import { startTestPortal, type TestPortal } from '../support/portal';

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
// Port 0x1F90 = 8080. A listener with 3 queued, a half-open connection, an established one, another port's listener.
const TCP = [
  HEADER,
  '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000003 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0',
  '   1: 0100007F:1F90 0100007F:D431 03 00000000:00000000 01:00000064 00000000     0        0 0 1 0 100 0 0 10 0',
  '   2: 0100007F:1F90 0100007F:D432 01 00000000:00000010 00:00000000 00000000     0        0 2 1 0 100 0 0 10 0',
  '   3: 0100007F:1F91 00000000:0000 0A 00000000:00000007 00:00000000 00000000     0        0 3 1 0 100 0 0 10 0',
  '   4: 0100007F:D433 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 4 1 0 100 0 0 10 0',
].join('\n');
const TCP6 = [
  HEADER,
  '   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:0000000A 00:00000000 00000000 0 0 5 1',
].join('\n');

describe('queuedIn', () => {
  it("counts a listener's accept queue and each half-open connection on the port, nothing else", () => {
    expect(queuedIn(TCP, ':1F90')).toBe(4);
    expect(queuedIn(TCP, ':1F91')).toBe(7);
    expect(queuedIn(TCP6, ':1F90')).toBe(10);
    // A client's connection to the port (remote :1F90) and other ports are not the listener's.
    expect(queuedIn(TCP, ':D433')).toBe(0);
    expect(queuedIn(TCP, ':0050')).toBe(0);
  });

  it('reads a truncated or foreign table as nothing queued rather than throwing', () => {
    for (const table of ['', HEADER, `${HEADER}\n   0: 0100007F:1F90`, `${HEADER}\n   0: 0100007F:1F90 00000000:0000 0A zz:zz`, 'garbage\nmore garbage']) {
      expect(queuedIn(table, ':1F90')).toBe(0);
    }
  });
});

describe('queuedConnections', () => {
  it('adds IPv4 and IPv6 tables, and is null when neither can be read (not Linux)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accept-queue-'));
    writeFileSync(path.join(dir, 'tcp'), TCP);
    writeFileSync(path.join(dir, 'tcp6'), TCP6);
    expect(queuedConnections(8080, [path.join(dir, 'tcp'), path.join(dir, 'tcp6')])).toBe(14);
    expect(queuedConnections(8080, [path.join(dir, 'tcp'), path.join(dir, 'missing')])).toBe(4);
    expect(queuedConnections(8080, [path.join(dir, 'missing')])).toBeNull();
  });

  it("sees the connections a real listener's process has not accepted yet, and none once it has", async () => {
    if (process.platform !== 'linux') throw new Error('the portal reads /proc/net/tcp: Linux only');
    // A listener in a process of its own, stopped (SIGSTOP): the kernel completes handshakes it cannot accept.
    const child = spawn(process.execPath, ['-e', "const s = require('net').createServer(); s.listen(0, '127.0.0.1', () => console.log(s.address().port));"], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const clients: net.Socket[] = [];
    try {
      const port = Number(await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))));
      expect(queuedConnections(port)).toBe(0);
      child.kill('SIGSTOP');
      for (let i = 0; i < 3; i += 1) {
        clients.push(
          await new Promise<net.Socket>((resolve) => {
            const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
          }),
        );
      }
      expect(queuedConnections(port)).toBe(3);
      child.kill('SIGCONT');
      await until(() => queuedConnections(port) === 0, 'the listener accepts what was queued');
    } finally {
      for (const client of clients) client.destroy();
      child.kill('SIGKILL');
    }
  });
});

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The drain's order, made certain rather than left to load: the delay ends while connections wait in the kernel's
 * queue. A check-phase callback blocks this process (the portal's) until a second process has queued ten connections
 * with a request on each and the delay is due; the next turn of the event loop runs timers before it polls for new
 * connections, so a drain that closed its listener as soon as the delay ended would reset all ten. Every one is
 * answered instead.
 */
describe('a drain whose delay ends with connections queued', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => {
    await t.close().catch(() => undefined);
  });

  it('answers every queued request before closing its listener', async () => {
    if (process.platform !== 'linux') throw new Error('the portal reads /proc/net/tcp: Linux only');
    const DELAY_MS = 300;
    const running = await listen(t.portal, 0, '127.0.0.1', createLogger('silent'), 10_000, DELAY_MS);
    const port = (running.server.address() as net.AddressInfo).port;
    // Ten connections, each sending one request, opened on SIGUSR1; prints each one's outcome as a JSON line.
    const connector = spawn(process.execPath, ['-e', CONNECTOR, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const outcome = new Promise<string[]>((resolve) => {
      let text = '';
      connector.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
      connector.once('exit', () => resolve(JSON.parse(text) as string[]));
    });
    await new Promise<void>((resolve) => connector.stdout!.once('readable', () => resolve()));
    const started = Date.now();
    const drained = running.shutdown();
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS / 2));
    setImmediate(() => {
      process.kill(connector.pid!, 'SIGUSR1');
      // Blocked: nothing is accepted until the delay is due and all ten wait in the queue.
      while (Date.now() - started < DELAY_MS + 50 || (queuedConnections(port) ?? 0) < 10) {
        if (Date.now() - started > 10_000) break;
      }
    });
    await drained;
    expect(await outcome).toEqual(Array.from({ length: 10 }, () => '200'));
  });
});

/** The second process: ten raw HTTP/1.1 requests, each on its own connection, once told to (SIGUSR1). */
const CONNECTOR = `
const net = require('net');
const port = Number(process.argv[1]);
process.stdout.write(' ');
process.once('SIGUSR1', async () => {
  const one = () => new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /about HTTP/1.1\\r\\nHost: www.qnnews.cn\\r\\n\\r\\n'));
    socket.on('data', (chunk) => { answer += chunk; });
    socket.on('error', (error) => resolve(error.code));
    socket.on('close', () => resolve(answer.slice(9, 12) || 'no answer'));
  });
  const outcomes = await Promise.all(Array.from({ length: 10 }, one));
  process.stdout.write(JSON.stringify(outcomes));
  process.exit(0);
});
setTimeout(() => process.exit(1), 60000);
`;
