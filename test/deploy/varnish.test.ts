/**
 * deploy/varnish/default.vcl with Debian's varnishd and varnish-modules (xkey), in front of two real portals that
 * share one Redis prefix and one reference API, purged by server/cache/edge-purge.ts: anonymous pages come from the
 * edge; signed-in readers and private answers never do; an xkey purge reaches every object of a tag or a path at
 * once (soft: stale while one refetch runs); a page is one object whatever its Host is spelt; PURGE needs the
 * token and an address of the ACL; the operations endpoints are not reachable through it in any spelling. The VCL is used as shipped, with only its backends' addresses put in.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { describeAcks, EdgePurgeInputError, EdgePurger } from '../../server/cache/edge-purge';
import { HOME_CATID } from '../../shared/constants';
import { routeTable } from '../../shared/routes';
import { ALL_SITES, BASE_DOMAIN, MAIN_DOMAIN, REGIONAL_SITES } from '../../shared/sites';
import { eventually, purgeAsOperator } from '../server/cache/redis-helpers';
import { rawRequest, type RawResponse } from '../support/http';
import { describeWithRedis, describeWithVarnish, testRedisUrl } from '../support/requirements';
import { signInCookies, signInEnv } from '../support/sign-in';
import { firstHomeArticle } from '../support/upstream-data';
import { adaptedVcl, compileVcl, portalsBehindVarnish, startVarnish, type TestVarnish } from '../support/varnish';

const TOKEN = 'edge-purge-token-for-tests';
/** 2,000 article keys, about 25 KB: more than any page shows, far past varnishd's default 8 KiB header line. */
const LONG_KEYS = Array.from({ length: 2000 }, (_, index) => `article:${1000 + index}`).join(' ');
const REGIONAL = REGIONAL_SITES[0]!.domain;
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

describeWithVarnish()('deploy/varnish/default.vcl (varnishd -C)', () => {
  it('compiles with the backends put in, and a misspelt one fails (so the check can fail)', async () => {
    const good = await compileVcl(adaptedVcl(['127.0.0.1:3000', '127.0.0.1:3001']));
    expect([good.code, good.output]).toEqual([0, expect.not.stringMatching(/Message from VCC-compiler/)]);
    const bad = await compileVcl(adaptedVcl(['127.0.0.1:3000']).replace('xkey.softpurge(', 'xkey.soft_purge('));
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/soft_purge/);
  });
});

/**
 * The grace rules against a tiny origin of the test's own whose Cache-Control and status the test sets: a second of
 * freshness, ten minutes of stale-while-revalidate (a second for /sie), ten minutes of stale-if-error. Each answer
 * says its number. Waits only ever run past a bound, so a busy machine cannot make a check early.
 */
describeWithVarnish()('the edge’s freshness and grace (stale-while-revalidate, stale-if-error)', () => {
  let origin: http.Server;
  let varnish: TestVarnish;
  let served = 0;
  let answer: { status: number; xCache?: string } = { status: 200 };

  beforeAll(async () => {
    origin = http.createServer((req, res) => {
      served += 1;
      if (req.url === '/readyz') return void res.end('ok');
      res.statusCode = answer.status;
      res.setHeader(
        'Cache-Control',
        answer.status === 200
          ? `public, max-age=0, s-maxage=1, stale-while-revalidate=${req.url === '/sie' ? 1 : 600}, stale-if-error=600`
          : 'private, no-store',
      );
      if (answer.xCache) res.setHeader('X-Cache', answer.xCache);
      res.setHeader('Surrogate-Key', req.url === '/long-keys' ? LONG_KEYS : 'page:grace');
      res.end(`answer ${served}`);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${(origin.address() as net.AddressInfo).port}`;
    varnish = await startVarnish({ backends: [address, address], purgeToken: TOKEN });
  });
  afterAll(async () => {
    await varnish?.stop();
    await new Promise((resolve) => origin?.close(resolve));
  });
  afterEach(() => {
    answer = { status: 200 };
  });

  const get = (path: string) => rawRequest(varnish.url, 'GET', path, { host: MAIN_DOMAIN });
  /** Waits until an object stored at `storedAt` is `seconds` old by the clock the edge keeps (whole seconds). */
  const olderThan = (storedAt: number, seconds: number) =>
    eventually(
      async () => Date.now(),
      (now) => now >= storedAt + seconds * 1000 + 50,
      (seconds + 2) * 1000,
    );

  it('serves a page within stale-while-revalidate at once and refreshes it behind the reader', async () => {
    const stored = await get('/swr');
    const storedAt = Date.now();
    expect([stored.headers['x-edge-cache'], stored.body]).toEqual(['MISS', expect.stringMatching(/^answer \d+$/)]);
    await olderThan(storedAt, 1);
    const stale = await get('/swr');
    expect([stale.headers['x-edge-cache'], stale.body]).toEqual(['STALE', stored.body]);
    const refreshed = await eventually(
      () => get('/swr'),
      (res) => res.body !== stored.body,
      5000,
    );
    // From the edge's copy (fresh, or stale again if a busy machine took longer than its second).
    expect(['HIT', 'STALE']).toContain(refreshed.headers['x-edge-cache']);
  });

  it('past stale-while-revalidate fetches while the reader waits; if that fails, serves the stale page (stale-if-error)', async () => {
    const stored = await get('/sie');
    const storedAt = Date.now();
    await olderThan(storedAt, 2);
    const refetched = await get('/sie');
    expect([refetched.headers['x-edge-cache'], refetched.body === stored.body]).toEqual(['MISS', false]);
    const second = Date.now();
    await olderThan(second, 2);
    answer = { status: 503 };
    const rescued = await get('/sie');
    expect([rescued.status, rescued.headers['x-edge-cache'], rescued.body]).toEqual([200, 'STALE', refetched.body]);
  });

  it('keeps a page the origin answered STALE as stale: the next reader starts a refetch', async () => {
    answer = { status: 200, xCache: 'STALE' };
    const first = await get('/stale-origin');
    answer = { status: 200 };
    // Stored for a millisecond (Varnish hands out nothing stored for 0 s): a reader within it may still hit.
    const next = await eventually(
      () => get('/stale-origin'),
      (res) => res.headers['x-edge-cache'] !== 'HIT',
      5000,
    );
    expect([next.headers['x-edge-cache'], next.body]).toEqual(['STALE', first.body]);
    const renewed = await eventually(
      () => get('/stale-origin'),
      (res) => res.headers['x-edge-cache'] === 'HIT',
      5000,
    );
    expect(renewed.body).not.toBe(first.body);
  });

  it('keeps a page whose Surrogate-Key is 24 KB long, purgeable by its last key', async () => {
    expect(LONG_KEYS.length).toBeGreaterThan(24_000);
    const stored = await get('/long-keys');
    expect([stored.status, stored.headers['surrogate-key']]).toEqual([200, undefined]);
    expect((await get('/long-keys')).headers['x-edge-cache']).toBe('HIT');
    const [ack] = await new EdgePurger({ edges: [varnish.url], token: TOKEN, timeoutMs: 5000 }).purge({ tags: ['article:2999'], soft: false });
    expect(ack).toMatchObject({ ok: true, purged: 1 });
    expect((await get('/long-keys')).headers['x-edge-cache']).toBe('MISS');
  });

  it('stores nothing the origin marks private', async () => {
    answer = { status: 503 };
    await get('/private');
    answer = { status: 200 };
    const after = await get('/private');
    expect([after.status, after.headers['x-edge-cache']]).toEqual([200, 'MISS']);
  });
});

describeWithVarnish()('the edge in front of the resizer (/img/, Vary: Accept)', () => {
  let origin: http.Server;
  let varnish: TestVarnish;
  const seen: Array<{ accept: string; cookie: string }> = [];

  beforeAll(async () => {
    origin = http.createServer((req, res) => {
      if (req.url === '/readyz') return void res.end('ok');
      seen.push({ accept: String(req.headers.accept), cookie: String(req.headers.cookie ?? '') });
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('Vary', 'Accept');
      res.end(`${String(req.headers.accept)} ${seen.length}`);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${(origin.address() as net.AddressInfo).port}`;
    varnish = await startVarnish({ backends: [address, address], purgeToken: TOKEN });
  });
  afterAll(async () => {
    await varnish?.stop();
    await new Promise((resolve) => origin?.close(resolve));
  });

  const get = (accept: string, extra: Record<string, string> = {}) =>
    rawRequest(varnish.url, 'GET', '/img/480/aHR0cHM6Ly9pbWcuZXhhbXBsZS5jbi9hLmpwZw', { host: MAIN_DOMAIN, accept, ...extra });

  it('keeps one object per format, whatever the Accept string, for signed-in readers too', async () => {
    const chrome = await get('image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8');
    expect([chrome.headers['x-edge-cache'], chrome.body]).toEqual(['MISS', 'image/avif 1']);
    const firefox = await get('image/avif,image/webp,*/*', { cookie: 'portal_session=abc' });
    expect([firefox.headers['x-edge-cache'], firefox.body]).toEqual(['HIT', 'image/avif 1']);
    const safari = await get('image/webp,image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5');
    expect([safari.headers['x-edge-cache'], safari.body]).toEqual(['MISS', 'image/webp 2']);
    const refusing = await get('image/avif;q=0, image/webp');
    expect([refusing.headers['x-edge-cache'], refusing.body]).toEqual(['HIT', 'image/webp 2']);
    const old = await get('*/*');
    expect([old.headers['x-edge-cache'], old.body]).toEqual(['MISS', 'image/jpeg 3']);
    expect(seen.map((request) => request.cookie)).toEqual(['', '', '']);
  });
});

describeWithVarnish()('the edge in front of two portals', () => {
  // describeWithVarnish() only checks varnishd; the portals need Redis (one prefix, sessions, purges) too.
  describeWithRedis()('with Redis', () => {
    const suite = portalsBehindVarnish({ purgeToken: TOKEN, env: (_edge, upstreamUrl) => signInEnv(upstreamUrl) });
    const purger = () => new EdgePurger({ edges: [suite.varnish.url], token: TOKEN, timeoutMs: 5000 });

    const viaEdge = (path: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
      rawRequest(suite.varnish.url, 'GET', path, { host: MAIN_DOMAIN, 'user-agent': DESKTOP, ...headers });

    /** Asks until the edge answers from its own copy (the portal's first, streamed answer is not shareable). */
    async function edgeHit(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
      const res = await eventually(
        () => viaEdge(path, headers),
        (answer) => answer.headers['x-edge-cache'] === 'HIT',
        10_000,
      );
      expect([path, res.status, res.headers['x-edge-cache']]).toEqual([path, 200, 'HIT']);
      return res;
    }

    /** The portal-side purge (L1 and Redis on both instances, acknowledged), as the publish hook does before the edges. */
    async function purgePortals(tag: string): Promise<void> {
      const record = await purgeAsOperator(testRedisUrl(), suite.a.cachePrefix, { by: 'tag', tag });
      expect(record.instances.missing).toEqual([]);
    }

    it('serves anonymous pages from its own copy: a second reader is a hit on the first object, with its age', async () => {
      for (const path of ['/', '/about', `/V1/${HOME_CATID}`]) {
        const first = await edgeHit(path);
        const second = await viaEdge(path);
        expect([path, second.headers['x-edge-cache']]).toEqual([path, 'HIT']);
        expect(String(second.headers['x-varnish']).split(' ')).toHaveLength(2);
        expect(objectIdOf(second)).toBe(objectIdOf(first));
        expect(Number(second.headers.age)).toBeGreaterThanOrEqual(0);
        expect(second.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
        // The keys stay at the edge (the portal's own answer carries them).
        expect([second.headers['surrogate-key'], second.headers.xkey]).toEqual([undefined, undefined]);
        expect(second.body).toBe(first.body);
        // One document for every reader: its scripts run by the hashes in its CSP, not by a nonce the edge
        // would hand to everyone (docs/security-headers.md).
        expect(second.headers['content-security-policy']).toMatch(/script-src (?:'sha256-[A-Za-z0-9+/]+=*' )+'strict-dynamic'/);
        expect(second.headers['content-security-policy']).not.toMatch(/'nonce-/);
      }
    });

    it('answers a current copy with 304 from its own object', async () => {
      // A page the portal holds (a streamed first render has no ETag yet: its headers go before the page is done).
      await rawRequest(suite.a.url, 'GET', '/about', { host: MAIN_DOMAIN });
      await eventually(
        () => rawRequest(suite.a.url, 'GET', '/about', { host: MAIN_DOMAIN }),
        (res) => res.headers['x-cache'] === 'HIT',
        5000,
      );
      const held = await edgeHit('/about?edge_conditional=1');
      // Strong from the portal; Varnish makes it weak when it unzips its gzip copy for a client without gzip.
      expect([held.headers.etag, held.headers['content-security-policy']]).toEqual([expect.stringMatching(/^(?:W\/)?"/), expect.stringMatching(/'sha256-/)]);
      const notModified = await viaEdge('/about?edge_conditional=1', { 'if-none-match': String(held.headers.etag) });
      expect([notModified.status, notModified.headers['x-edge-cache'], notModified.headers.etag]).toEqual([304, 'HIT', held.headers.etag]);
      expect(notModified.headers['content-security-policy']).toBeUndefined();
      expect(notModified.headers['cache-control']).toBe(held.headers['cache-control']);
      // Not current: the whole page, with its CSP.
      const changed = await viaEdge('/about?edge_conditional=1', { 'if-none-match': 'W/"another"' });
      expect([changed.status, changed.headers['content-security-policy']]).toEqual([200, held.headers['content-security-policy']]);
    });

    it('keeps one object for the variants that differ by tracking parameters or their order, none for other parameters', async () => {
      const plain = await edgeHit(`/V1/${HOME_CATID}?page=2`);
      for (const variant of [
        `/V1/${HOME_CATID}?page=2&from=singlemessage&isappinstalled=0`,
        `/V1/${HOME_CATID}?utm_source=weibo&UTM_Medium=social&page=2`,
        `/V1/${HOME_CATID}?spm=suite.a.b.c&page=2&fbclid=x`,
      ]) {
        const res = await viaEdge(variant);
        expect([variant, res.headers['x-edge-cache'], objectIdOf(res)]).toEqual([variant, 'HIT', objectIdOf(plain)]);
      }
      const first = await viaEdge(`/V1/${HOME_CATID}?page=3`);
      expect(first.headers['x-edge-cache']).not.toBe('HIT');
      // Parameters in another order are one object.
      const ordered = await edgeHit('/about?a=1&b=2');
      const reordered = await viaEdge('/about?b=2&a=1');
      expect([reordered.headers['x-edge-cache'], objectIdOf(reordered)]).toEqual(['HIT', objectIdOf(ordered)]);
    });

    it('drops from the key only parameters that no route reads', () => {
      const dropped = /\(\?<=\[\?&\]\)\(([^)]*)\)=/.exec(readFileSync(path.resolve(__dirname, '../../deploy/varnish/default.vcl'), 'utf8'))?.[1];
      expect(dropped).toMatch(/utm_/);
      const names = dropped!.split('|').map((name) => new RegExp(`^(?:${name})$`, 'i'));
      const read = routeTable().flatMap((route) => ('query' in route && Array.isArray(route.query) ? (route.query as string[]) : []));
      expect(read).toEqual(expect.arrayContaining(['page']));
      expect(read.filter((param) => names.some((name) => name.test(param)))).toEqual([]);
    });

    it('keeps the site, the compression and the device class apart', async () => {
      const raw = await firstHomeArticle(suite.a.upstream.url, HOME_CATID);
      const detail = `/detail/${raw.catid}/${raw.id}`;
      const main = await edgeHit('/');
      const regional = await edgeHit('/', { host: REGIONAL });
      expect(regional.body).not.toBe(main.body);
      // A gzip reader gets the stored gzip object, an identity reader the same page decoded by Varnish.
      const gzip = await rawGetBytes(suite.varnish.url, '/', { host: MAIN_DOMAIN, 'accept-encoding': 'gzip', 'user-agent': DESKTOP });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers['x-edge-cache']).toBe('HIT');
      // Detail varies by User-Agent: desktop readers share the page, a phone after them still gets its redirect.
      await edgeHit(detail);
      expect((await viaEdge(detail, { 'user-agent': `${DESKTOP} Other` })).headers['x-edge-cache']).toBe('HIT');
      const phone = await viaEdge(detail, { 'user-agent': PHONE });
      expect(phone.status).toBe(302);
      expect(phone.headers.location).toContain(`id=${raw.id}`);
      expect(phone.headers.vary).toMatch(/User-Agent/);
      expect((await viaEdge(detail, { 'user-agent': PHONE })).status).toBe(302);
    });

    it('files a page once whatever its Host is spelt, a Host that is no site under the main site, purged by URL at once', async () => {
      const path = '/about?edge_host=1';
      const spellings = [`${MAIN_DOMAIN}:443`, `${MAIN_DOMAIN}.`, MAIN_DOMAIN.toUpperCase(), `${MAIN_DOMAIN.toUpperCase()}.:8080`, BASE_DOMAIN];
      const strangers = ['edge-churn-1.example', 'edge-churn-2.example:8443', '203.0.113.9'];
      const held = await edgeHit(path);
      for (const host of [...spellings, ...strangers]) {
        const res = await viaEdge(path, { host });
        expect([host, res.headers['x-edge-cache'], objectIdOf(res)]).toEqual([host, 'HIT', objectIdOf(held)]);
      }
      const regional = await edgeHit(path, { host: REGIONAL });
      const regionalSpelt = await viaEdge(path, { host: `${REGIONAL.toUpperCase()}.:443` });
      expect([regionalSpelt.headers['x-edge-cache'], objectIdOf(regionalSpelt)]).toEqual(['HIT', objectIdOf(regional)]);
      expect(objectIdOf(regional)).not.toBe(objectIdOf(held));

      const [ack] = await purger().purge({ urls: [`https://${MAIN_DOMAIN}/about`], soft: false });
      expect(ack).toMatchObject({ ok: true, purged: expect.any(Number) });
      // The one object is gone for every spelling: the first reader after the purge is a fetch, whatever Host.
      expect((await viaEdge(path, { host: `${MAIN_DOMAIN}:443` })).headers['x-edge-cache']).toBe('MISS');
      const refetched = await edgeHit(path, { host: strangers[0]! });
      for (const host of [MAIN_DOMAIN, ...spellings, ...strangers]) {
        const res = await viaEdge(path, { host });
        expect([host, res.headers['x-edge-cache'], objectIdOf(res)]).toEqual([host, 'HIT', objectIdOf(refetched)]);
      }
    });

    it('names in the VCL the very sites of shared/sites.ts', () => {
      const vcl = readFileSync(path.resolve(__dirname, '../../deploy/varnish/default.vcl'), 'utf8');
      const listed = /!~ "\^\(([a-z|]+)\)\\\.qnnews\\\.cn\$"/.exec(vcl)?.[1]?.split('|');
      expect(listed?.map((sub) => `${sub}.${BASE_DOMAIN}`).sort()).toEqual(ALL_SITES.map((site) => site.domain).sort());
      expect(vcl).toContain(`req.http.Host == "${BASE_DOMAIN}"`);
      expect(vcl).toContain(`set req.http.Host = "${MAIN_DOMAIN}";`);
    });

    it('never answers a signed-in reader from its copy, nor keeps what the portal rendered for them', async () => {
      const alice = await signInCookies(suite.a, '边缘读者甲');
      const bob = await signInCookies(suite.b, '边缘读者乙');
      await edgeHit('/');
      // The personal center without a session is the same sign-in prompt for everyone: the edge may keep that one.
      const prompt = await edgeHit('/personalCenter');
      for (const [reader, own, other] of [
        [alice, '边缘读者甲', '边缘读者乙'],
        [bob, '边缘读者乙', '边缘读者甲'],
      ] as const) {
        const home = await viaEdge('/', { cookie: reader.cookie });
        expect(home.headers['x-edge-cache']).toBe('PASS');
        const center = await viaEdge('/personalCenter', { cookie: reader.cookie });
        expect([center.status, center.headers['x-edge-cache'], center.headers['cache-control']]).toEqual([200, 'PASS', 'private, no-store']);
        expect(center.body).toContain(own);
        expect(center.body).not.toContain(other);
      }
      // Nothing a reader was given is held for anyone else: anonymous readers still get the object from before.
      const anonymous = await viaEdge('/personalCenter');
      expect([anonymous.headers['x-edge-cache'], objectIdOf(anonymous)]).toEqual(['HIT', objectIdOf(prompt)]);
      expect(anonymous.body).not.toMatch(/边缘读者[甲乙]/);
      expect((await viaEdge('/')).body).not.toMatch(/边缘读者[甲乙]/);
    });

    it('a hard purge of article:<id> takes every page carrying it off the edge at once', async () => {
      const raw = await firstHomeArticle(suite.a.upstream.url, HOME_CATID);
      const pages: Array<[path: string, host: string]> = [
        [`/detail/${raw.catid}/${raw.id}`, MAIN_DOMAIN],
        [`/detail/${raw.catid}/${raw.id}?variant=1`, MAIN_DOMAIN],
        [`/detail/${raw.catid}/${raw.id}`, REGIONAL],
      ];
      for (const [path, host] of pages) expect(headlineOf(await edgeHit(path, { host }))).toBe(raw.title);
      const untouched = await edgeHit('/about');

      suite.a.upstream.api.control.overrideArticle(raw.id, { title: '边缘缓存已更正的标题' });
      await purgePortals(`article:${raw.id}`);
      const acks = await purger().purge({ tags: [`article:${raw.id}`], soft: false });
      expect(acks).toEqual([{ edge: suite.varnish.url, ok: true, purged: expect.any(Number), ms: expect.any(Number) }]);
      expect(acks[0]!.ok && acks[0]!.purged).toBeGreaterThanOrEqual(pages.length);
      // Acknowledged means gone: the very next request for each page is a fetch with the new title, no wait.
      for (const [path, host] of pages) {
        const res = await viaEdge(path, { host });
        expect([path, host, res.headers['x-edge-cache'], headlineOf(res)]).toEqual([path, host, 'MISS', '边缘缓存已更正的标题']);
      }
      // Objects not carrying the key stay.
      const about = await viaEdge('/about');
      expect(about.headers['x-edge-cache']).toBe('HIT');
      expect(objectIdOf(about)).toBe(objectIdOf(untouched));
    });

    it('a soft purge keeps the old page on the edge while one refetch runs, then serves the new one', async () => {
      const raw = await firstHomeArticle(suite.a.upstream.url, HOME_CATID);
      const path = `/detail/${raw.catid}/${raw.id}`;
      const before = await edgeHit(path);
      suite.a.upstream.api.control.overrideArticle(raw.id, { title: '软清除之后的新标题' });
      await purgePortals(`article:${raw.id}`);
      const [ack] = await purger().purge({ tags: [`article:${raw.id}`], soft: true });
      expect(ack).toMatchObject({ ok: true, purged: expect.any(Number) });
      expect(ack!.ok && ack!.purged).toBeGreaterThanOrEqual(1);
      // The first reader after it gets the object it had (and starts the refetch); readers after the refetch, the new page.
      const stale = await viaEdge(path);
      expect([stale.headers['x-edge-cache'], objectIdOf(stale), headlineOf(stale)]).toEqual(['STALE', objectIdOf(before), headlineOf(before)]);
      const fresh = await eventually(
        () => viaEdge(path),
        (res) => headlineOf(res) === '软清除之后的新标题',
        10_000,
      );
      expect([fresh.status, headlineOf(fresh)]).toEqual([200, '软清除之后的新标题']);
    });

    it('purges a URL on every query variant of its path, and only that path', async () => {
      await edgeHit('/about');
      await edgeHit('/about?variant=1');
      const other = await edgeHit(`/V1/${HOME_CATID}`);
      const [ack] = await purger().purge({ urls: [`https://${MAIN_DOMAIN}/about`], soft: false });
      expect(ack).toMatchObject({ ok: true, purged: expect.any(Number) });
      expect(ack!.ok && ack!.purged).toBeGreaterThanOrEqual(2);
      expect((await viaEdge('/about')).headers['x-edge-cache']).toBe('MISS');
      expect((await viaEdge('/about?variant=1')).headers['x-edge-cache']).toBe('MISS');
      const still = await viaEdge(`/V1/${HOME_CATID}`);
      expect([still.headers['x-edge-cache'], objectIdOf(still)]).toEqual(['HIT', objectIdOf(other)]);
    });

    it('takes PURGE only with the token, from an address of its ACL', async () => {
      const held = await edgeHit('/about');
      const keys = { 'x-purge-mode': 'hard', 'x-purge-keys': 'path:www.qnnews.cn/about' };
      expect((await rawRequest(suite.varnish.url, 'PURGE', '/', keys)).status).toBe(403);
      expect((await rawRequest(suite.varnish.url, 'PURGE', '/', { ...keys, 'x-purge-token': `${TOKEN}x` })).status).toBe(403);
      // 127.0.0.2 is this machine too, but not in the ACL (which names 127.0.0.1 and private networks).
      expect((await purgeFrom('127.0.0.2', suite.varnish.port, { ...keys, 'x-purge-token': TOKEN })).status).toBe(403);
      const wrong = await new EdgePurger({ edges: [suite.varnish.url], token: `${TOKEN}x`, timeoutMs: 5000 }).purge({
        urls: [`http://${MAIN_DOMAIN}/about`],
        soft: false,
      });
      expect(wrong).toEqual([{ edge: suite.varnish.url, ok: false, reason: expect.stringMatching(/^refused \(403\)/), ms: expect.any(Number) }]);
      // None of them touched the object.
      const after = await viaEdge('/about');
      expect([after.headers['x-edge-cache'], objectIdOf(after)]).toEqual(['HIT', objectIdOf(held)]);
      expect((await purgeFrom('127.0.0.1', suite.varnish.port, { ...keys, 'x-purge-token': TOKEN })).status).toBe(200);
    });

    it.each([
      '/_internal/l1?key=x',
      '/_INTERNAL/l1?key=x',
      '//_internal/l1?key=x',
      '/%5Finternal/l1?key=x',
      '/%5finternal/l1?key=x',
      '/%255Finternal/l1?key=x',
      '/%25255finternal/purge',
      '/_internal%2Fl1?key=x',
      '/_internal%252Fpurge',
      '/_internal;x/l1?key=x',
      '/_internal/../_internal/l1?key=x',
      '/./_internal/l1',
      '/x/%2e%2e/_internal/purge',
      '/_internal\\purge',
      '/metrics',
      '/METRICS',
      '/%6Detrics',
      '/%6detrics',
      '/%256Detrics',
      '/metrics;x',
      '/Metrics;jsessionid=1?x=1',
      '/readyz',
      '/ReadyZ?probe=1',
      '/readyz;',
      '/metrics/',
    ])('does not reach %s on the portal', async (spelling) => {
      // Refused by the edge itself (its synthetic answer, no request id of the portal's), on GET and POST.
      for (const [method, target] of [
        ['GET', spelling],
        ['POST', spelling.replace(/\?.*/, '')],
      ] as const) {
        const res = await rawRequest(suite.varnish.url, method, target, { host: MAIN_DOMAIN });
        expect([method, res.status, res.headers['x-request-id'], res.body]).toEqual([method, 404, undefined, 'Not Found\n']);
      }
    });

    it('answers a malformed escape in the path with 400, not a VCL failure, and passes the query as sent', async () => {
      for (const target of ['/about%zz', '/about%', '/%5', '/%2525255Finternal/purge', '/about%25252541'])
        expect([target, (await rawRequest(suite.varnish.url, 'GET', target, { host: MAIN_DOMAIN })).status]).toEqual([target, 400]);
      for (const target of ['/about%00', '/%ff%fe', '/about?q=100%', '/about%2500', '/about%2525zz'])
        expect([target, (await rawRequest(suite.varnish.url, 'GET', target, { host: MAIN_DOMAIN })).status]).not.toEqual([target, 503]);
      expect((await rawRequest(suite.varnish.url, 'GET', '/about?from=50%off', { host: MAIN_DOMAIN })).status).toBe(200);
    });

    it('reports each edge on its own: acknowledged, refused, unreachable, silent', async () => {
      const silent = net.createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedUrl = `http://127.0.0.1:${(closed.address() as net.AddressInfo).port}`;
      await new Promise((resolve) => closed.close(resolve));
      const silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
      try {
        const acks = await new EdgePurger({ edges: [suite.varnish.url, closedUrl, silentUrl], token: TOKEN, timeoutMs: 1500 }).purge({
          tags: ['page:about'],
          soft: true,
        });
        expect(acks.map((ack) => [ack.edge, ack.ok])).toEqual([
          [suite.varnish.url, true],
          [closedUrl, false],
          [silentUrl, false],
        ]);
        expect(acks[1]).toMatchObject({ reason: expect.stringMatching(/ECONNREFUSED/) });
        expect(acks[2]).toMatchObject({ reason: 'no answer within 1500 ms' });
        expect(describeAcks(acks)).toMatch(
          new RegExp(
            `^acknowledged by ${escape(suite.varnish.url)} \\(\\d+ objects\\); missing ${escape(closedUrl)} \\(.*ECONNREFUSED.*\\), ${escape(silentUrl)} \\(no answer within 1500 ms\\)$`,
          ),
        );
      } finally {
        silent.close();
      }
    });

    it('refuses an order it cannot send, before sending anything', async () => {
      for (const order of [
        { tags: ['article:1 article:2'], soft: true },
        { tags: ['*'], soft: true },
        { urls: ['/about'], soft: true },
        { urls: ['ftp://x/y'], soft: true },
      ]) {
        await expect(purger().purge(order)).rejects.toBeInstanceOf(EdgePurgeInputError);
      }
    });

    // Last: it stops the second instance.
    it('tries a read the stopped instance did not answer once more, on the other', async () => {
      await suite.b.close();
      const paths = Array.from({ length: 16 }, (_, index) => `/about?edge_retry=${index}`);
      const answers = await Promise.all(paths.map((path) => viaEdge(path)));
      expect(answers.map((res) => res.status)).toEqual(paths.map(() => 200));
    });
  });
});

/** The article page's headline. */
function headlineOf(res: RawResponse): string | undefined {
  return /<h1 class="article__title">([^<]*)<\/h1>/.exec(res.body)?.[1];
}

/** On a hit, X-Varnish is this request's id and the id of the request that stored the object. */
function objectIdOf(res: RawResponse): string | undefined {
  return String(res.headers['x-varnish']).split(' ')[1];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A request from a chosen local address (loopback has all of 127.0.0.0/8). */
function purgeFrom(localAddress: string, port: number, headers: Record<string, string>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, method: 'PURGE', path: '/', localAddress, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      })
      .on('error', reject)
      .end();
  });
}

function rawGetBytes(base: string, path: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, base), { headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on('error', reject);
  });
}
