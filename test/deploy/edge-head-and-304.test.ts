/**
 * HEAD and 304 through the edge: a real varnishd running the shipped VCL in front of two portals answers a HEAD with
 * the status and headers of the GET it stands for, and a 304 with the Vary, ETag and Cache-Control of its 200, for
 * pages, feeds, the page data endpoint, assets and public files, with every Accept-Encoding. The portal's own
 * answers: test/server/head-and-304.test.ts.
 */
import { MAIN_SITE } from '../../shared/sites';
import { rawRequest, type RawResponse } from '../support/http';
import { describeWithVarnish } from '../support/requirements';
import { portalsBehindVarnish } from '../support/varnish';

const ENCODINGS = ['identity', 'gzip', 'br', 'gzip, deflate, br', null] as const;

/**
 * Per response: when, which request, how long stored, whether this one was a hit, and its framing: varnishd sends
 * a Content-Length when it holds the whole body before it answers and streams (chunked) otherwise, for one resource
 * alike; a HEAD's Content-Length, when there is one, is checked on its own.
 */
const PER_RESPONSE = new Set([
  'content-length',
  'date',
  'x-request-id',
  'age',
  'server-timing',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'ratelimit',
  'x-varnish',
  'x-edge-cache',
  'x-cache',
]);

function comparable(answer: RawResponse): Record<string, unknown> {
  const headers: Record<string, unknown> = { status: answer.status };
  for (const [name, value] of Object.entries(answer.headers)) {
    if (PER_RESPONSE.has(name)) continue;
    headers[name] = typeof value === 'string' ? value.replace(/'nonce-[^']+'/g, "'nonce'") : value;
  }
  return headers;
}

describeWithVarnish()('HEAD and 304 through the edge', () => {
  const suite = portalsBehindVarnish({ purgeToken: 'edge-purge-token-of-the-head-suite' });

  const ask = (method: 'GET' | 'HEAD', path: string, encoding: string | null, extra: Record<string, string> = {}) =>
    rawRequest(suite.varnish.url, method, path, {
      host: MAIN_SITE.domain,
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120',
      'accept-encoding': encoding ?? '',
      ...extra,
    });

  const paths = () => {
    const entry = suite.a.portal.assets.entryScript.replace(/^\/?(assets\/)?/, '');
    return ['/', '/about', '/rss/2728.xml', '/sitemaps/news.xml', '/_data/page?path=%2Fabout', `/assets/${entry}`, '/favicon.svg', '/robots.txt'];
  };

  it.each(ENCODINGS)('Accept-Encoding %p: a HEAD has its GET’s status and headers', async (encoding) => {
    for (const path of paths()) {
      await ask('GET', path, encoding);
      await ask('GET', path, encoding);
      const head = await ask('HEAD', path, encoding);
      const get = await ask('GET', path, encoding);
      expect([path, comparable(head)]).toEqual([path, comparable(get)]);
      expect([path, head.body]).toEqual([path, '']);
      if (head.headers['content-length'] !== undefined) {
        expect([path, head.headers['content-length']]).toEqual([path, get.headers['content-length'] ?? String(Buffer.byteLength(get.body, 'latin1'))]);
      }
    }
  });

  it.each(ENCODINGS)('Accept-Encoding %p: a 304 carries the Vary, ETag and Cache-Control of its 200', async (encoding) => {
    let validated = 0;
    for (const path of paths()) {
      const full = await ask('GET', path, encoding);
      const etag = full.headers.etag;
      if (full.status !== 200 || etag === undefined) continue;
      const again = await ask('GET', path, encoding, { 'if-none-match': etag });
      expect([path, again.status]).toEqual([path, 304]);
      const kept = (answer: RawResponse) => ({ vary: answer.headers.vary, etag: answer.headers.etag, 'cache-control': answer.headers['cache-control'] });
      expect([path, kept(again)]).toEqual([path, kept(full)]);
      validated += 1;
    }
    expect(validated).toBeGreaterThanOrEqual(3);
  });
});
