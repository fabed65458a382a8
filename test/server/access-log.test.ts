/**
 * The access log an on-call engineer reads: one line per response with the path and its query (secret parameters
 * redacted, bounded), the client as TRUST_PROXY lets the portal believe it, the site and its id, the route, the
 * referer (redacted, bounded), status, bytes, cache result, time and the build; on the cached-hit path, the
 * middleware chain and the canonical-target answer alike. Two real portals: one trusting the loopback proxy, one
 * trusting none.
 */
import request from 'supertest';
import { REGIONAL_SITES } from '../../shared/sites';
import { loggableTarget } from '../../server/edge/request-context';
import { startTestPortal, type TestPortal } from '../support/portal';

interface Line {
  msg?: string;
  reqId?: string;
  path?: string;
  status?: number;
  client?: string;
  site?: string;
  siteId?: number;
  route?: string;
  referer?: string;
  cache?: string;
  bytes?: number;
  ms?: number;
  build?: string;
  ua?: string;
}

jest.setTimeout(120_000);

describe('access log', () => {
  let behindProxy: TestPortal;
  let direct: TestPortal;
  beforeAll(async () => {
    behindProxy = await startTestPortal({ env: { TRUST_PROXY: 'loopback' } });
    direct = await startTestPortal({ upstream: behindProxy.upstream });
  });
  afterAll(async () => {
    await direct?.close();
    await behindProxy?.close();
  });

  const lineOf = (t: TestPortal, id: string): Line | undefined => t.logs.find((entry) => entry.reqId === id && entry.msg === 'request') as Line | undefined;

  it('keeps the query with secrets redacted, and names client, site, route, referer and build', async () => {
    const regional = REGIONAL_SITES[3]!;
    await request(behindProxy.url)
      .get('/list/2728/2.html?page=2&token=s3cret-t0ken&utm_source=x&CODE=abc&state=xyz')
      .set('Host', regional.domain)
      .set('X-Forwarded-For', '198.51.100.23')
      .set('Referer', `https://${regional.domain}/?access_token=leaked&from=home`)
      .set('X-Request-Id', 'access-log-query-1');
    const line = lineOf(behindProxy, 'access-log-query-1');
    expect(line).toMatchObject({
      path: '/list/2728/2.html?page=2&token=[redacted]&utm_source=x&CODE=[redacted]&state=[redacted]',
      client: '198.51.100.23',
      site: regional.domain,
      siteId: regional.id,
      referer: `https://${regional.domain}/?access_token=[redacted]&from=home`,
      build: behindProxy.portal.assets.buildId,
    });
    expect(line!.route).toEqual(expect.any(String));
    expect(line!.route).not.toBe('other');
    expect(JSON.stringify(behindProxy.logs)).not.toMatch(/s3cret-t0ken|leaked/);
    expect(typeof line!.status).toBe('number');
    expect(line!.bytes).toBeGreaterThan(0);
    expect(line!.ms).toBeGreaterThanOrEqual(0);
  });

  it('names a route on every line: the data a client navigation reads, the API, an unknown path', async () => {
    const asked: Array<[string, string, string]> = [
      ['GET', '/_data/page?path=%2Fabout', '_data'],
      ['GET', '/_data/resource/menu', '_data'],
      ['POST', '/api/nothing', 'api'],
      ['GET', '/no/such/page', 'not-found'],
    ];
    for (const [index, [method, path]] of asked.entries()) {
      const id = `access-log-route-${index}`;
      await (method === 'POST' ? request(direct.url).post(path) : request(direct.url).get(path)).set('X-Request-Id', id);
    }
    const routes = asked.map((_, index) => lineOf(direct, `access-log-route-${index}`)?.route);
    expect(routes).toEqual(asked.map(([, , route]) => route));
  });

  it('names the peer, not a forwarded claim, when TRUST_PROXY trusts no proxy', async () => {
    await request(direct.url).get('/about?x=1').set('X-Forwarded-For', '203.0.113.50').set('X-Request-Id', 'access-log-direct-1');
    expect(lineOf(direct, 'access-log-direct-1')).toMatchObject({ path: '/about?x=1', client: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/) });
  });

  it('logs a cached hit (the hit path) with its query, route and client like a render', async () => {
    const path = '/about?utm_source=newsletter&code=one-time';
    await request(behindProxy.url).get(path).set('X-Forwarded-For', '198.51.100.7');
    await request(behindProxy.url).get(path).set('X-Forwarded-For', '198.51.100.7').set('X-Request-Id', 'access-log-hit-1').expect(200);
    const hit = lineOf(behindProxy, 'access-log-hit-1');
    expect(hit).toMatchObject({ cache: 'HIT', path: '/about?utm_source=newsletter&code=[redacted]', client: '198.51.100.7', siteId: 0 });
    expect(hit!.route).toEqual(expect.any(String));
    expect(hit!.route).not.toBe('other');
  });

  it('bounds a long path and referer, and logs a canonical-target answer with its path', async () => {
    const long = `/about?q=${'x'.repeat(3000)}`;
    await request(direct.url)
      .get(long)
      .set('Referer', `https://www.qnnews.cn/${'r'.repeat(2000)}`)
      .set('X-Request-Id', 'access-log-long-1');
    const line = lineOf(direct, 'access-log-long-1')!;
    expect(line.path!.length).toBe(512);
    expect(line.path!.endsWith('…')).toBe(true);
    expect(line.referer!.length).toBe(256);

    await request(direct.url).get('/detail//2728/1?token=abc').set('X-Request-Id', 'access-log-canonical-1');
    const canonical = lineOf(direct, 'access-log-canonical-1');
    expect(canonical).toMatchObject({ path: '/detail//2728/1?token=[redacted]' });
    expect(canonical!.status).toBeGreaterThanOrEqual(300);
  });
});

describe('TRUST_PROXY behind a CDN', () => {
  it('takes a number of hops: with 1, the client is the address the nearest proxy (the CDN) appended', async () => {
    const t = await startTestPortal({ env: { TRUST_PROXY: '1' } });
    try {
      // A reader's own X-Forwarded-For claim first, then what the CDN appended: only the latter is believed.
      await request(t.url).get('/about').set('X-Forwarded-For', '203.0.113.9, 198.51.100.44').set('X-Request-Id', 'access-log-hops-1');
      expect(t.logs.find((line) => line.reqId === 'access-log-hops-1')).toMatchObject({ client: '198.51.100.44' });
    } finally {
      await t.close();
    }
  });

  it('refuses a malformed address or range at start, naming it', async () => {
    const { loadConfig } = await import('../../server/platform/config');
    expect(() => loadConfig({ UPSTREAM_URL: 'http://127.0.0.1:1', TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY="10\.0\.0\.0\/33"/);
    expect(() => loadConfig({ UPSTREAM_URL: 'http://127.0.0.1:1', TRUST_PROXY: 'loopback, 203.0.113.0/24' })).not.toThrow();
    expect(loadConfig({ UPSTREAM_URL: 'http://127.0.0.1:1', TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
  });
});

describe('loggableTarget', () => {
  it.each([
    ['/a?token=1', '/a?token=[redacted]'],
    ['/a?x=1&Access_Token=2;code=3#frag', '/a?x=1&Access_Token=[redacted];code=[redacted]#frag'],
    ['/token=not-a-query', '/token=not-a-query'],
    ['/a?codex=1&mystate=2', '/a?codex=1&mystate=2'],
    ['/a?password=p&api_key=k&sig=s', '/a?password=[redacted]&api_key=[redacted]&sig=[redacted]'],
    // Secret names in other spellings: within a longer name, camelCase, percent-encoded, another prefix.
    ['/a?auth_token=1&accessToken=2&sessionid=3', '/a?auth_token=[redacted]&accessToken=[redacted]&sessionid=[redacted]'],
    ['/a?%74oken=1&client_secret=2&X-Amz-Signature=3&jwt=4', '/a?%74oken=[redacted]&client_secret=[redacted]&X-Amz-Signature=[redacted]&jwt=[redacted]'],
    ['/a?user_password=1&apiKey=2&refresh%5Ftoken=3', '/a?user_password=[redacted]&apiKey=[redacted]&refresh%5Ftoken=[redacted]'],
    // What a page shows is kept: a search keyword, an author, a page number, a value with = in it.
    ['/search?keyword=%E6%96%B0&author=li&page=2&x=a==', '/search?keyword=%E6%96%B0&author=li&page=2&x=a=='],
    // A Referer may carry user:password@ (browsers drop it; a crafted one need not).
    ['https://ops:hunter2@www.qnnews.cn/?from=home', 'https://[redacted]@www.qnnews.cn/?from=home'],
  ])('%s → %s', (target, logged) => {
    expect(loggableTarget(target, 512)).toBe(logged);
  });
});
