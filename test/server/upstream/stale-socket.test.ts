/**
 * A kept-alive socket the upstream closed while idle fails the next request sent on it, before any answer: a GET
 * is sent once more on a fresh socket; a POST is not (it may have been acted on).
 */
import net, { type AddressInfo } from 'node:net';
import { UpstreamClient } from '../../../server/upstream/http-client';

const ANSWER = JSON.stringify({ code: 0, msg: 'ok', data: { n: 1 } });

/** Answers the first request of each connection; the second request on a connection gets the socket closed. */
function closingUpstream(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    let requests = 0;
    socket.on('data', (chunk: Buffer) => {
      if (!chunk.includes('\r\n\r\n')) return;
      requests += 1;
      if (requests > 1) {
        socket.destroy();
        return;
      }
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(ANSWER)}\r\nConnection: keep-alive\r\n\r\n${ANSWER}`,
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        connections: () => connections,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

describe('a stale kept-alive upstream socket', () => {
  it('a GET is sent again on a fresh socket and answered', async () => {
    const upstream = await closingUpstream();
    const client = new UpstreamClient({ baseUrl: upstream.url, timeoutMs: 5000, maxBodyBytes: 1_000_000 });
    try {
      const first = await client.request({ method: 'GET', path: '/a', call: 'a' });
      const second = await client.request({ method: 'GET', path: '/b', call: 'b' });
      expect([first.outcome, second.outcome]).toEqual(['ok', 'ok']);
      expect(upstream.connections()).toBe(2);
    } finally {
      client.close();
      await upstream.close();
    }
  });

  it('a POST is not sent twice: the call fails', async () => {
    const upstream = await closingUpstream();
    const client = new UpstreamClient({ baseUrl: upstream.url, timeoutMs: 5000, maxBodyBytes: 1_000_000 });
    try {
      expect((await client.request({ method: 'POST', path: '/a', body: {}, call: 'a' })).outcome).toBe('ok');
      expect((await client.request({ method: 'POST', path: '/b', body: {}, call: 'b' })).outcome).toBe('unavailable');
      expect(upstream.connections()).toBe(1);
    } finally {
      client.close();
      await upstream.close();
    }
  });
});
