/**
 * One path per page: every spelling of a path other than its canonical one is a 301 to it (GET, HEAD) or a 400
 * (other methods, malformed escapes), before the cached-hit path or Express see it — whether the page is cached
 * or not, for pages and for every other area of the portal alike.
 */
import { HOME_CATID } from '../../../shared/constants';
import { encodeKeyword } from '../../../shared/search';
import { rawRequest } from '../../support/http';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { firstHomeArticle } from '../../support/upstream-data';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Spellings of `path` a reviewer would try: trailing and doubled slashes, dot segments, escaped digits. */
function spellingsOf(path: string): string[] {
  const segments = path.split('/').slice(1);
  const last = segments.length - 1;
  const escapedDigit = path.replace(/\d/, (digit) => `%3${digit}`);
  return [
    `${path}/`,
    `${path}//`,
    `/${segments.join('//')}`,
    `//${segments.join('/')}`,
    `/x/..${path}`,
    `/x/%2e%2e${path}`,
    `/api/..${path}`,
    `/assets/..${path}`,
    `/_data/..${path}`,
    `/./${segments.join('/./')}`,
    `/${segments.slice(0, last).join('/')}/zz/../${segments[last]}`,
    escapedDigit,
  ].filter((spelling) => spelling !== path);
}

describe('canonical request targets', () => {
  let t: TestPortal;
  let detail: string;
  const search = `/search/${encodeKeyword('青年')}/1`;

  beforeAll(async () => {
    t = await startTestPortal({ env: { MOBILE_DETAIL_URL: 'https://m.qnnews.cn/pages/detail' } });
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    detail = `/detail/${raw.catid}/${raw.id}`;
  });
  afterAll(async () => t.close());

  async function expectRedirectsToCanonical(path: string): Promise<void> {
    for (const spelling of spellingsOf(path)) {
      for (const method of ['GET', 'HEAD']) {
        const answer = await rawRequest(t.url, method, `${spelling}?page=2&utm_source=x`);
        if (answer.status !== 301 || answer.headers.location !== `${path}?page=2&utm_source=x`) {
          throw new Error(`${method} ${spelling}: ${answer.status} ${answer.headers.location ?? ''}`);
        }
        expect(answer.headers['x-cache']).toBeUndefined();
      }
    }
  }

  it.each([['/about'], ['/license']])('every other spelling of %s is a 301 to it, before and after it is cached', async (path) => {
    await expectRedirectsToCanonical(path);
    expect((await rawRequest(t.url, 'GET', path)).status).toBe(200);
    const hit = await rawRequest(t.url, 'GET', path);
    expect(hit.headers['x-cache']).toBe('HIT');
    await expectRedirectsToCanonical(path);
  });

  it('articles and searches too, and their canonical link is the canonical path', async () => {
    for (const path of [detail, search]) {
      await expectRedirectsToCanonical(path);
      const page = await rawRequest(t.url, 'GET', path);
      expect(page.status).toBe(200);
      expect(page.body).toContain(`<link rel="canonical" href="https://www.qnnews.cn${path}"`);
      await expectRedirectsToCanonical(path);
    }
  });

  it('a phone asking for another spelling of an article is sent to the canonical path, then to the mobile site', async () => {
    const spelled = await rawRequest(t.url, 'GET', `/x/..${detail}`, { 'User-Agent': IPHONE });
    expect(spelled.status).toBe(301);
    expect(spelled.headers.location).toBe(detail);
    const phone = await rawRequest(t.url, 'GET', detail, { 'User-Agent': IPHONE });
    expect(phone.status).toBe(302);
    expect(phone.headers.vary).toMatch(/User-Agent/);
  });

  it('every other area is reached by its canonical path only: another spelling is simply not there', async () => {
    for (const spelling of [
      '/healthz/',
      '/robots.txt/',
      '/assets/../robots.txt',
      '/_data/page/',
      '/api/../package.json',
      '//evil.example',
      '/.//evil.example/x',
    ]) {
      const answer = await rawRequest(t.url, 'GET', spelling);
      expect([spelling, answer.status, answer.headers.location]).toEqual([spelling, 404, undefined]);
    }
    expect((await rawRequest(t.url, 'GET', '/api/../about')).headers.location).toBe('/about');
  });

  it('other methods get a 400 naming the canonical path, and nothing changes', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await rawRequest(t.url, method, '/api/../logout', { 'Content-Length': '0' });
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('/logout');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it.each(['/about%zz', '/detail/%', '/a%2', '/%E4%B8%AD%'])('a malformed escape (%s) is a 400 with a message, never a 500', async (spelling) => {
    const answer = await rawRequest(t.url, 'GET', spelling);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/^请求有误：/);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('client navigations asking for another spelling are told the canonical path', async () => {
    for (const spelling of ['/about/', '/x/../about', '/%61bout']) {
      const answer = await rawRequest(t.url, 'GET', `/_data/page?path=${encodeURIComponent(`${spelling}?page=3`)}`);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ kind: 'redirect', location: '/about?page=3' });
    }
    const bad = await rawRequest(t.url, 'GET', `/_data/page?path=${encodeURIComponent('/about%zz')}`);
    expect(bad.status).toBe(400);
  });
});
