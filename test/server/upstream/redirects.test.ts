/**
 * The content API is not trusted (docs/security.md): a redirect from it is never followed, on any call. The
 * reference API answers 301/302/303/307/308 with a Location on another origin (absolute or protocol-relative) or
 * on its own; another real HTTP server stands for the other origin and records whatever reaches it. Every call that
 * goes upstream is tried (the client itself, content reads GET and POST, the /api proxy signed in and not, the
 * reader's lists, sign-in and logout, the embedded media proxy): the other origin receives nothing, the reader
 * gets the portal's own error answer, and nothing is cached.
 */
import http from 'node:http';
import express from 'express';
import request from 'supertest';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { NO_RESPONSE_ENVELOPE } from '../../../shared/types/envelope';
import { MAIN_DOMAIN } from '../../../shared/sites';
import { RawCategoryIndexSchema } from '../../../server/upstream/wire';
import { UpstreamClient, type UpstreamCallOutcome } from '../../../server/upstream/http-client';
import { mediaProxy } from '../../../server/upstream/media-proxy';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { callback, confirmScan, signInCookies, signInEnv, startLogin, type SignedInCookies } from '../../support/sign-in';
import { homeListEntry } from '../../support/upstream-data';

const ORIGIN = `https://${MAIN_DOMAIN}`;
const STATUSES = [301, 302, 303, 307, 308] as const;
/** Whatever reaches the other origin, as it arrived. */
interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The other origin: answers every request with a success envelope a portal would happily render, and records it. */
async function startOtherOrigin(): Promise<{ url: string; host: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(parts).toString('utf8') });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ code: 0, msg: 'STOLEN', data: { children: [], lists: [], list: [], num: 666 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Where a redirect may point: another origin, spelt absolute or protocol-relative, or the CMS's own origin. */
function locations(otherHost: string) {
  return [
    { kind: 'absolute other origin', location: `http://${otherHost}/steal`, host: otherHost },
    { kind: 'protocol-relative other origin', location: `//${otherHost}/steal`, host: otherHost },
    { kind: 'same origin', location: '/__redirected/steal', host: 'same' },
  ] as const;
}

describe('upstream redirects are never followed', () => {
  let upstream: ReferenceServer;
  let other: Awaited<ReturnType<typeof startOtherOrigin>>;

  beforeAll(async () => {
    other = await startOtherOrigin();
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await upstream.close();
    await other.close();
  });
  afterEach(() => {
    upstream.api.control.reset();
    other.received.length = 0;
  });

  /** The reference API was not asked for the redirect's same-origin target either. */
  const sameOriginTargetAsked = () => Object.keys(upstream.api.control.stats().byPath).some((key) => key.includes('/__redirected/'));
  const hostOf = (host: string) => (host === 'same' ? new URL(upstream.url).host : host);

  describe('UpstreamClient', () => {
    const outcomes: string[] = [];
    const redirects: Array<{ call: string; status: number; host: string }> = [];
    let client: UpstreamClient;
    beforeAll(() => {
      client = new UpstreamClient({
        baseUrl: upstream.url,
        timeoutMs: 2000,
        maxBodyBytes: 1_000_000,
        onCall: (call: string, outcome: UpstreamCallOutcome) => outcomes.push(`${call}:${outcome}`),
        onRedirect: (call, status, host) => redirects.push({ call, status, host }),
      });
    });
    afterAll(() => client.close());
    afterEach(() => {
      outcomes.length = 0;
      redirects.length = 0;
    });

    const cases = STATUSES.flatMap((status) =>
      ['GET', 'POST'].flatMap((method) =>
        [true, false].flatMap((signedIn) => locations('OTHER').map((where) => ({ status, method: method as 'GET' | 'POST', signedIn, ...where }))),
      ),
    );

    it.each(cases)('$status to $kind on $method (signed in: $signedIn) is a failed call, counted and reported', async (c) => {
      const location = c.location.replace('OTHER', other.host);
      upstream.api.control.setFailures([{ path: '/mobile/index/category_index', mode: 'redirect', status: c.status, location }]);
      const result = await client.request(
        {
          method: c.method,
          path: '/mobile/index/category_index',
          ...(c.method === 'POST' ? { body: { catid: 2727 } } : {}),
          ...(c.signedIn ? { headers: { token: 'reader-token-secret' } } : {}),
          call: 'category_index',
          readOnly: true,
        },
        RawCategoryIndexSchema,
      );
      expect(result).toMatchObject({ outcome: 'unavailable', envelope: NO_RESPONSE_ENVELOPE });
      expect(result.outcome === 'unavailable' && result.reason).toContain(`HTTP ${c.status}`);
      expect(outcomes).toEqual(['category_index:redirect']);
      expect(redirects).toEqual([{ call: 'category_index', status: c.status, host: hostOf(c.host.replace('OTHER', other.host)) }]);
      expect(other.received).toEqual([]);
      expect(sameOriginTargetAsked()).toBe(false);
    });

    it.each([
      ['a path that is not a path', 'x/steal'],
      ['userinfo spelt into the path', '@127.0.0.1:1/steal'],
    ])('never sends a call whose path would leave the configured origin (%s)', async (_label, path) => {
      const result = await client.request({ method: 'GET', path, headers: { token: 'reader-token-secret' }, call: 'odd' });
      expect(result.outcome).toBe('unavailable');
      expect(outcomes).toEqual(['odd:unavailable']);
      expect(upstream.api.control.stats().total).toBe(0);
    });
  });

  describe('through a portal', () => {
    let t: TestPortal;
    let reader: SignedInCookies;

    beforeAll(async () => {
      t = await startTestPortal({ upstream, env: { ...signInEnv(upstream.url), UPSTREAM_TIMEOUT_MS: '3000' } });
      reader = await signInCookies(t, '重定向读者');
    });
    afterAll(() => t.close());

    const cachedKeys = () => t.portal.store.keysMatching(`${t.cachePrefix}:*`);
    const redirectLogs = () => t.logs.filter((line) => line.msg === 'upstream answered a redirect; not followed');

    /** The invariants of every case: nothing reached the other origin, nothing of it reached the reader, it was logged. */
    async function expectRefused(answerText: string, status: number, logsBefore: number) {
      expect(other.received).toEqual([]);
      expect(sameOriginTargetAsked()).toBe(false);
      expect(answerText).not.toContain('STOLEN');
      expect(answerText).not.toContain(other.host);
      expect(answerText).not.toContain('__redirected');
      const logged = redirectLogs().slice(logsBefore);
      expect(logged.length).toBeGreaterThan(0);
      expect(logged[0]).toMatchObject({ status });
    }

    const variants = STATUSES.flatMap((status) => locations('OTHER').map((where) => ({ status, ...where })));
    const rule = (path: string, v: (typeof variants)[number]) =>
      upstream.api.control.setFailures([{ path, mode: 'redirect', status: v.status, location: v.location.replace('OTHER', other.host) }]);

    it.each(variants)('an article read (GET /show/…): $status to $kind is a 503, not cached', async (v) => {
      const entry = await homeListEntry(upstream.url);
      rule('/show/', v);
      const before = redirectLogs().length;
      const keysBefore = new Set(await cachedKeys());
      for (const cookie of [undefined, reader.cookie]) {
        let call = request(t.url).get(`/detail/${entry.catid}/${entry.id}`).set('Host', MAIN_DOMAIN);
        if (cookie) call = call.set('Cookie', cookie);
        const page = await call;
        expect(page.status).toBe(503);
        expect(page.headers['retry-after']).toBeDefined();
        expect(page.headers.location).toBeUndefined();
        await expectRefused(page.text, v.status, before);
      }
      const added = (await cachedKeys()).filter((key) => !keysBefore.has(key));
      expect(added.filter((key) => key.includes(`show:${entry.catid}:${entry.id}`) || key.includes(`/detail/${entry.catid}/${entry.id}`))).toEqual([]);
    });

    it.each(variants)('a home read (POST category_index): $status to $kind is a 503, not cached', async (v) => {
      rule('/mobile/index/category_index', v);
      const before = redirectLogs().length;
      const page = await request(t.url).get('/').set('Host', MAIN_DOMAIN).set('Cookie', reader.cookie);
      expect(page.status).toBe(503);
      await expectRefused(page.text, v.status, before);
      expect((await cachedKeys()).filter((key) => key.includes('category_index') || /:page:\d+:\/$/.test(key))).toEqual([]);
    });

    it.each(variants)('the /api proxy, GET signed in: $status to $kind is a 502 of its own', async (v) => {
      rule('/api/column_subscribe/list', v);
      const before = redirectLogs().length;
      const answer = await request(t.url).get('/api/column_subscribe/list?page=1').set('Host', MAIN_DOMAIN).set('Cookie', reader.cookie);
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual(NO_RESPONSE_ENVELOPE);
      expect(answer.headers['cache-control']).toBe('private, no-store');
      await expectRefused(answer.text, v.status, before);
    });

    it.each(variants)('the /api proxy, POST signed in: $status to $kind re-sends neither body nor token', async (v) => {
      rule('/api/thumbsup/toggle', v);
      const before = redirectLogs().length;
      const answer = await request(t.url)
        .post('/api/thumbsup/toggle')
        .set('Host', MAIN_DOMAIN)
        .set('Origin', ORIGIN)
        .set('Cookie', reader.cookie)
        .send({ catid: 7, article_id: 42 });
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual(NO_RESPONSE_ENVELOPE);
      await expectRefused(answer.text, v.status, before);
    });

    it.each(variants)('the /api proxy, anonymous: $status to $kind is a 502 of its own', async (v) => {
      rule('/api/thumbsup/get_num', v);
      const before = redirectLogs().length;
      const answer = await request(t.url).get('/api/thumbsup/get_num?catid=7&article_id=42').set('Host', MAIN_DOMAIN);
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual(NO_RESPONSE_ENVELOPE);
      await expectRefused(answer.text, v.status, before);
    });

    it.each(variants)("the reader's lists (personal center): $status to $kind shows the section unavailable", async (v) => {
      rule('/api/collection/list_and_article_detail', v);
      const before = redirectLogs().length;
      const page = await request(t.url).get('/personalCenter').set('Host', MAIN_DOMAIN).set('Cookie', reader.cookie);
      expect(page.status).toBeLessThan(500);
      await expectRefused(page.text, v.status, before);
    });

    it.each(variants)('sign-in (the code exchange): $status to $kind is a failed sign-in, no session', async (v) => {
      rule('/api/user/third', v);
      const before = redirectLogs().length;
      const login = await startLogin(t, '/');
      const back = await callback(t, await confirmScan(t, login, '换码读者'), login.state);
      expect(back.status).toBe(400);
      expect(String(back.headers['set-cookie'] ?? '')).not.toContain('portal_session=');
      await expectRefused(back.text, v.status, before);
    });

    it.each(variants)('logout: $status to $kind sends the token nowhere else and still signs out', async (v) => {
      const leaving = await signInCookies(t, '离开读者');
      rule('/api/user/logout', v);
      const before = redirectLogs().length;
      const answer = await request(t.url).post('/logout').set('Host', MAIN_DOMAIN).set('Origin', ORIGIN).set('Cookie', leaving.cookie);
      expect(answer.status).toBe(303);
      expect(String(answer.headers['set-cookie'] ?? '')).toMatch(/portal_session=;/);
      await expectRefused(answer.text, v.status, before);
    });
  });

  describe('the embedded media proxy', () => {
    let server: http.Server;
    let base: string;
    beforeAll(async () => {
      const app = express();
      app.use('/media', mediaProxy(upstream.url));
      server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it.each(STATUSES.flatMap((status) => locations('OTHER').map((where) => ({ status, ...where }))))(
      '$status to $kind is a 502, Location and body not relayed',
      async (v) => {
        upstream.api.control.setFailures([{ path: '/media/', mode: 'redirect', status: v.status, location: v.location.replace('OTHER', other.host) }]);
        const answer = await request(base).get('/media/pictures/a.svg');
        expect(answer.status).toBe(502);
        expect(answer.headers.location).toBeUndefined();
        expect(answer.text).toBe('');
        expect(other.received).toEqual([]);
      },
    );
  });
});
