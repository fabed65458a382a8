/**
 * HEAD and 304 tell the truth (server/edge/head-as-get.ts, server/render/page-response.ts): a HEAD gets the
 * status and headers its GET gets, header for header (Content-Encoding, Content-Length of the encoded body or none,
 * Vary, ETag, Cache-Control), for every kind of resource (pages held and rendered, feeds, sitemaps, the page data
 * endpoint, assets, public files, robots.txt, a 404, the probes) and every Accept-Encoding; a 304 carries the Vary,
 * ETag and Cache-Control of its 200.
 */
import { MAIN_SITE } from '../../shared/sites';
import { rawRequest, type RawResponse } from '../support/http';
import { pagesOfEveryKind } from '../support/page-kinds';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithRedis } from '../support/requirements';

/** `null`: no Accept-Encoding at all. */
const ENCODINGS = ['identity', 'gzip', 'br', 'gzip, deflate, br', 'deflate', 'br;q=0, gzip;q=0.5', null] as const;

/** Per response, not per resource: when it was made, which request it was, how long ago it was stored. */
const PER_RESPONSE = new Set(['date', 'ratelimit', 'x-request-id', 'age', 'server-timing', 'connection', 'keep-alive', 'transfer-encoding']);

/** The headers a HEAD must repeat: all but the per-response ones, a CSP's nonce made one spelling. */
function comparable(answer: RawResponse): Record<string, unknown> {
  const headers: Record<string, unknown> = { status: answer.status };
  for (const [name, value] of Object.entries(answer.headers)) {
    if (PER_RESPONSE.has(name)) continue;
    headers[name] = typeof value === 'string' ? value.replace(/'nonce-[^']+'/g, "'nonce'") : value;
  }
  return headers;
}

function ask(t: TestPortal, method: 'GET' | 'HEAD', path: string, encoding: string | null, extra: Record<string, string> = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { host: MAIN_SITE.domain, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120', ...extra };
  // rawRequest asks for identity unless told otherwise; an absent header is its own case.
  headers['accept-encoding'] = encoding ?? '';
  return rawRequest(t.url, method, path, headers);
}

// Held pages are answered in front of Express (page-hits.ts) or by the chain: both ways.
describeWithRedis().each([
  ['in front of Express', true],
  ['through the Express chain', false],
])('HEAD answers what GET would; a 304 what its 200 would (held pages %s)', (_where, pageHits) => {
  let t: TestPortal;
  let paths: string[];
  beforeAll(async () => {
    t = await startTestPortal({ pageHits });
    const asset = (file: string) => `/assets/${file.replace(/^\/?(assets\/)?/, '')}`;
    const pages = (await pagesOfEveryKind(t.url)).slice(0, 4);
    paths = [
      '/',
      '/about',
      ...pages,
      '/rss/2728.xml',
      '/sitemaps/news.xml',
      '/sitemaps/pages.xml',
      '/sitemap.xml',
      '/robots.txt',
      '/_data/page?path=%2Fabout',
      '/api/thumbsup/get_num?catid=7&article_id=42',
      asset(t.portal.assets.entryScript),
      ...t.portal.assets.styles.map(asset),
      '/favicon.ico',
      '/favicon.svg',
      '/no-such-page-anywhere',
      // Answered before Express: a spelling redirected to its canonical path, one that names nothing, a bad escape.
      '/api/../about',
      '/robots.txt/',
      '/about%zz',
      '/healthz',
    ];
  });
  afterAll(() => t?.close());

  it('covers a resource of every kind', () => {
    expect(paths.length).toBeGreaterThanOrEqual(19);
  });

  it.each(ENCODINGS)('Accept-Encoding %p: every resource’s HEAD has its GET’s status and headers', async (encoding) => {
    for (const path of paths) {
      // Asked twice first: what a GET stores, the HEAD after it and the GET it is compared with find alike.
      await ask(t, 'GET', path, encoding);
      await ask(t, 'GET', path, encoding);
      const head = await ask(t, 'HEAD', path, encoding);
      const get = await ask(t, 'GET', path, encoding);
      expect([path, comparable(head)]).toEqual([path, comparable(get)]);
      expect([path, head.body]).toEqual([path, '']);
    }
  });

  it.each(ENCODINGS)('Accept-Encoding %p: every 304 carries the Vary, ETag and Cache-Control of its 200', async (encoding) => {
    let validated = 0;
    for (const path of paths) {
      const full = await ask(t, 'GET', path, encoding);
      const etag = full.headers.etag;
      if (full.status !== 200 || etag === undefined) continue;
      for (const method of ['GET', 'HEAD'] as const) {
        const again = await ask(t, method, path, encoding, { 'if-none-match': etag });
        expect([path, method, again.status]).toEqual([path, method, 304]);
        const kept = (answer: RawResponse) => ({ vary: answer.headers.vary, etag: answer.headers.etag, 'cache-control': answer.headers['cache-control'] });
        expect([path, method, kept(again)]).toEqual([path, method, kept(full)]);
        expect([path, again.headers['content-type'], again.headers['content-encoding']]).toEqual([path, undefined, undefined]);
      }
      validated += 1;
    }
    // The pages, the assets and the public files have validators: a change that dropped them would pass vacuously.
    expect(validated).toBeGreaterThanOrEqual(5);
  });
});
