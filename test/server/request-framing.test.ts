/**
 * One framing policy at the edge (server/edge/request-framing.ts, and Node's own parser before it), over
 * raw sockets: each badly framed request gets exactly one answer, 400 or 501, never shareable, its connection
 * closed (nothing after it is read as a next request), and nothing reaches the page cache.
 */
import net from 'node:net';
import { MAIN_SITE } from '../../shared/sites';
import { pageKeyOf, startTestPortal, type TestPortal } from '../support/portal';

interface RawAnswer {
  /** Status codes of every response read from the connection, in order. */
  statuses: number[];
  headers: string;
  /** Whether the server closed the connection (within the limit). */
  closed: boolean;
}

/** Writes `raw` on a new connection and reads until the server closes it (or `limitMs`, reported as not closed). */
function exchange(url: string, raw: string, limitMs = 15_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let text = '';
    const finish = (closed: boolean) => {
      clearTimeout(limit);
      socket.destroy();
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
      resolve({ statuses, headers: text.split('\r\n\r\n')[0] ?? '', closed });
    };
    const limit = setTimeout(() => finish(false), limitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(raw, 'latin1');
  });
}

const HOST = `Host: ${MAIN_SITE.domain}\r\n`;
const get = (headers: string, version = '1.1') => `GET /about HTTP/${version}\r\n${headers}\r\n`;
const post = (headers: string, body: string) => `POST /api/user/profile HTTP/1.1\r\n${HOST}${headers}\r\n${body}`;

/** [what, request, the status it must get]. */
const BADLY_FRAMED: Array<[string, string, 400 | 501 | 505]> = [
  ['two Host lines naming two sites', get(`${HOST}Host: bj.${MAIN_SITE.domain.replace(/^www\./, '')}\r\n`), 400],
  ['two identical Host lines', get(`${HOST}${HOST}`), 400],
  ['two Host lines in different case', get(`host: ${MAIN_SITE.domain}\r\nHOST: ${MAIN_SITE.domain}\r\n`), 400],
  ['a Host naming two hosts', get(`Host: ${MAIN_SITE.domain}, evil.example\r\n`), 400],
  ['a Host with a path', get(`Host: ${MAIN_SITE.domain}/x\r\n`), 400],
  ['Transfer-Encoding: xchunked', get(`${HOST}Transfer-Encoding: xchunked\r\n`), 501],
  ['Transfer-Encoding: gzip, chunked', get(`${HOST}Transfer-Encoding: gzip, chunked\r\n`) + '0\r\n\r\n', 501],
  ['Transfer-Encoding: identity', get(`${HOST}Transfer-Encoding: identity\r\n`), 501],
  ['Transfer-Encoding: chunked, chunked', get(`${HOST}Transfer-Encoding: chunked, chunked\r\n`) + '0\r\n\r\n', 400],
  ['Transfer-Encoding: chunked on two lines', get(`${HOST}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n`) + '0\r\n\r\n', 400],
  ['Transfer-Encoding: chunked followed by a comma', get(`${HOST}Transfer-Encoding: chunked,\r\n`) + '0\r\n\r\n', 400],
  ['an empty Transfer-Encoding', get(`${HOST}Transfer-Encoding: \r\n`), 400],
  ['Transfer-Encoding in an HTTP/1.0 request', get(`${HOST}Transfer-Encoding: chunked\r\n`, '1.0') + '0\r\n\r\n', 400],
  ['Content-Length beside Transfer-Encoding', post('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n'), 400],
  ['two differing Content-Lengths', post('Content-Length: 2\r\nContent-Length: 3\r\n', '{}x'), 400],
  ['two equal Content-Lengths', post('Content-Length: 2\r\nContent-Length: 2\r\n', '{}'), 400],
  ['a Content-Length list', post('Content-Length: 2, 2\r\n', '{}'), 400],
  ['a signed Content-Length', post('Content-Length: +2\r\n', '{}'), 400],
  ['Transfer_Encoding (an underscore a gateway may read as a hyphen)', get(`${HOST}Transfer_Encoding: chunked\r\n`) + '0\r\n\r\n', 400],
  ['transfer_encoding beside Content-Length', post('Content-Length: 2\r\ntransfer_encoding: chunked\r\n', '{}'), 400],
  ['Content_Length', post('Content_Length: 2\r\n', '{}'), 400],
  ['Transfer-Encoding: chunked, identity', get(`${HOST}Transfer-Encoding: chunked, identity\r\n`) + '0\r\n\r\n', 400],
  ['Transfer-Encoding with a vertical tab', get(`${HOST}Transfer-Encoding: \x0bchunked\r\n`) + '0\r\n\r\n', 400],
  ['Host with userinfo', get(`Host: reader@${MAIN_SITE.domain}\r\n`), 400],
  ['an absolute-form target naming the site itself', `GET http://${MAIN_SITE.domain}/about HTTP/1.1\r\n${HOST}\r\n`, 400],
  ['an obs-fold line', get(`${HOST}X-Note: a\r\n folded\r\n`), 400],
  ['whitespace before a colon', get(`${HOST}Accept-Encoding : gzip\r\n`), 400],
  ['bare LF line ends', `GET /about HTTP/1.1\nHost: ${MAIN_SITE.domain}\n\n`, 400],
  ['an absolute-form target naming another host', `GET http://evil.example/about HTTP/1.1\r\n${HOST}\r\n`, 400],
  ['an HTTP/2.0 request line (not HTTP/1 framing)', get(HOST, '2.0'), 505],
  ['an HTTP/3.0 request line (llhttp refuses it itself)', get(HOST, '3.0'), 400],
  ['an HTTP/0.9 request line with headers', get(HOST, '0.9'), 505],
];

describe('request framing at the edge', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(BADLY_FRAMED)('%s: one answer, refused, not shareable, the connection closed', async (_what, raw, status) => {
    const answer = await exchange(t.url, raw);
    expect(answer).toEqual({ statuses: [status], headers: expect.any(String), closed: true });
    expect(answer.headers).not.toMatch(/cache-control:[^\r]*public/i);
    if (status !== 400) expect(answer.headers).toMatch(/cache-control: no-store/i);
    expect(await t.portal.store.get(pageKeyOf(t, MAIN_SITE.id, '/about'))).toBeNull();
  });

  it('reads nothing after a refused request as a next one (no smuggled request is answered)', async () => {
    const smuggled = `GET /home HTTP/1.1\r\n${HOST}\r\n`;
    for (const coding of ['xchunked', 'gzip, chunked', 'identity']) {
      const answer = await exchange(t.url, get(`${HOST}Transfer-Encoding: ${coding}\r\n`) + smuggled);
      expect([coding, answer.statuses, answer.closed]).toEqual([coding, [501], true]);
    }
    const twoHosts = await exchange(t.url, get(`${HOST}Host: evil.example\r\n`) + smuggled);
    expect([twoHosts.statuses, twoHosts.closed]).toEqual([[400], true]);
  });

  it('well-framed requests still pass: chunked in any case, one Content-Length, and the page is then stored', async () => {
    for (const coding of ['chunked', 'Chunked', 'CHUNKED']) {
      const answer = await exchange(t.url, get(`${HOST}Transfer-Encoding: ${coding}\r\nConnection: close\r\n`) + '0\r\n\r\n');
      expect([coding, answer.statuses]).toEqual([coding, [200]]);
    }
    const withLength = await exchange(t.url, get(`${HOST}Content-Length: 0\r\nConnection: close\r\n`));
    expect(withLength.statuses).toEqual([200]);
    // Stored as its response ends: the same store the refusals were checked against does fill.
    const key = pageKeyOf(t, MAIN_SITE.id, '/about');
    const deadline = Date.now() + 15_000;
    while ((await t.portal.store.get(key)) === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await t.portal.store.get(key)).not.toBeNull();
  });
});
