/**
 * A Redis that refuses writes: the portal's Redis demoted to a replica by a failover (READONLY on every write).
 * Two redis-servers of the test's own swap roles under a running portal, once with everything on that Redis and
 * once with only the sessions on it (SESSION_REDIS_URL). Every write path (pending sign-ins, sessions, the cache's
 * entries, tag sets and lock, instance announcements) then meets a refusal: sign-in is a 503 with Retry-After,
 * pages are 200 (a write refused is a miss), a signed-in reader keeps reading and can sign out, and nothing is a 500.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import request from 'supertest';
import { startReferenceApi } from '../../scripts/reference-api/server';
import { MSG_SIGN_IN_UNAVAILABLE } from '../../server/auth/routes';
import { HOME_CATID } from '../../shared/constants';
import { MAIN_DOMAIN } from '../../shared/sites';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../support/portal';
import { OwnRedis, waitUntil } from '../support/redis-server';
import { describeWithRedis, describeWithRedisServers, testRedisUrl } from '../support/requirements';
import { callback, confirmScan, mainSitePage, setCookieLine, signInCookies, signInEnv, startLogin } from '../support/sign-in';
import { articleList, homeCategories } from '../support/upstream-data';
import { deleteKeys } from './cache/redis-helpers';

// The shared test Redis (the cache, in the second case) and redis-server binaries (the pair that swaps roles).
const describeBoth = process.env.PORTAL_TEST_NO_REDIS ? describeWithRedis() : describeWithRedisServers();

/** A master and its replica; `failOver` promotes the replica and demotes the master to a replica of it. */
class RedisPair {
  private constructor(
    readonly first: OwnRedis,
    readonly second: OwnRedis,
    private readonly dir: string,
  ) {}

  static async start(): Promise<RedisPair> {
    // A replica's full sync goes through an RDB file: in a directory of the test's own, not the working tree.
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-read-only-'));
    const first = await OwnRedis.start({ args: () => ['--dir', dir] });
    const second = await OwnRedis.start({ args: () => ['--dir', dir, '--replicaof', '127.0.0.1', String(first.port)] });
    const pair = new RedisPair(first, second, dir);
    await pair.linked(second);
    return pair;
  }

  /** The first server becomes a read-only replica of the second, holding what the second holds. */
  async failOver(): Promise<void> {
    // A planned failover, as Redis's own FAILOVER makes it: every write so far reaches the replica first (under load
    // the sign-in's session had not yet, and the promoted replica did not have it).
    const acknowledged = await this.command(this.first, (client) => client.wait(1, 30_000));
    if (acknowledged < 1) throw new Error('the replica did not acknowledge the writes before the failover');
    await this.command(this.second, (client) => client.replicaof('NO', 'ONE'));
    await this.command(this.first, (client) => client.replicaof('127.0.0.1', this.second.port));
    await this.linked(this.first);
  }

  private async linked(replica: OwnRedis): Promise<void> {
    await waitUntil(
      () => this.command(replica, async (client) => /master_link_status:up/.test(await client.info('replication'))),
      30_000,
      'the replica to sync',
    );
  }

  async command<T>(server: OwnRedis, run: (client: Redis) => Promise<T>): Promise<T> {
    const client = new Redis(server.url);
    try {
      return await run(client);
    } finally {
      client.disconnect();
    }
  }

  async stop(): Promise<void> {
    await this.second.stop();
    await this.first.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

interface Topology {
  redisUrl: string;
  env: Record<string, string>;
  /** Whether the instance announcements go to the demoted Redis too. */
  announcesThere: boolean;
}

const topologies: Array<[string, (pair: RedisPair) => Topology]> = [
  ['the one Redis (cache, lock, sessions, announcements)', (pair) => ({ redisUrl: pair.first.url, env: {}, announcesThere: true })],
  ['the session Redis (SESSION_REDIS_URL)', (pair) => ({ redisUrl: testRedisUrl(), env: { SESSION_REDIS_URL: pair.first.url }, announcesThere: false })],
];

describe.each(topologies)('%s demoted to a read-only replica', (_name, topology) => {
  describeBoth('every write refused', () => {
    let pair: RedisPair;
    let upstream: ReferenceServer;
    let t: TestPortal;
    let signedIn: { session: string; cookie: string };
    let pendingLogin: Awaited<ReturnType<typeof startLogin>>;
    let announcesThere = false;
    beforeAll(async () => {
      pair = await RedisPair.start();
      upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
      const { redisUrl, env, ...rest } = topology(pair);
      announcesThere = rest.announcesThere;
      // Announced every 200 ms, so its refused writes happen during the test.
      t = await startTestPortal({ upstream, redisUrl, env: { ...signInEnv(upstream.url), ...env }, announceEveryMs: 200 });
      // Before the failover: a reader signed in, another half-way through signing in, the home page cached.
      const cookies = await signInCookies(t, '只读读者');
      signedIn = { session: cookies.session, cookie: cookies.cookie };
      pendingLogin = await startLogin(t, '/about');
      expect((await mainSitePage(t, '/home')).status).toBe(200);
      await pair.failOver();
      // The portal's connection is still up: the next write it sends is refused.
      expect(await pair.command(pair.first, (client) => client.set(`${t.cachePrefix}:probe`, '1').catch((error: Error) => error.message))).toMatch(/^READONLY/);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await upstream?.close();
      await pair?.stop();
      if (t) await deleteKeys(testRedisUrl(), t.cachePrefix);
    });

    it('starting a sign-in is a 503 with Retry-After and a page saying so, never a 500', async () => {
      for (const query of [{ return: '/' }, { return: '/about', embed: '1' }]) {
        const res = await request(t.url).get('/login/wechat').query(query).set('Host', MAIN_DOMAIN);
        expect([res.status, res.headers['retry-after'], res.headers['cache-control']]).toEqual([503, expect.stringMatching(/^\d+$/), 'private, no-store']);
        expect(res.text).toContain(MSG_SIGN_IN_UNAVAILABLE);
        // No state cookie for a sign-in that was never recorded.
        expect(setCookieLine(res.headers['set-cookie'], 'portal_login_state')).toBe('');
      }
    });

    it('finishing a sign-in begun before the failover is a 503 with Retry-After, and signs nobody in', async () => {
      const back = await callback(t, await confirmScan(t, pendingLogin, '半途读者'), pendingLogin.state);
      expect([back.status, back.headers['retry-after']]).toEqual([503, expect.stringMatching(/^\d+$/)]);
      expect(back.text).toContain(MSG_SIGN_IN_UNAVAILABLE);
      expect(setCookieLine(back.headers['set-cookie'], 'portal_session')).toBe('');
    });

    it('a callback with a state it does not know is still the failed sign-in page (400)', async () => {
      const state = 'a'.repeat(64);
      const res = await request(t.url)
        .get('/login/wechat/callback')
        .query({ code: 'x', state })
        .set('Host', MAIN_DOMAIN)
        .set('Cookie', `portal_login_state=${state}`);
      expect([400, 503]).toContain(res.status);
      if (res.status === 503) expect(res.headers['retry-after']).toMatch(/^\d+$/);
    });

    it('pages are answered: cached ones from what the replica holds, new ones rendered (their store refused)', async () => {
      const categories = await homeCategories(upstream.url, HOME_CATID);
      const entry = (await articleList(upstream.url, categories[0]!.catid)).lists[1]!;
      for (const path of [
        '/home',
        '/about',
        `/detail/${entry.catid}/${entry.id}`,
        `/detail/${entry.catid}/${entry.id}`,
        '/sitemaps/news.xml',
        `/rss/${entry.catid}.xml`,
      ]) {
        const res = await mainSitePage(t, path);
        expect([path, res.status]).toEqual([path, 200]);
      }
    });

    it('a signed-in reader keeps reading, gets the profile through the proxy, and can sign out', async () => {
      const page = await request(t.url).get('/about').set('Host', MAIN_DOMAIN).set('Cookie', signedIn.cookie);
      expect(page.status).toBe(200);
      // A profile answer would refresh the stored session: refused, the answer is still relayed.
      const profile = await request(t.url)
        .post('/api/user/profile')
        .set('Host', MAIN_DOMAIN)
        .set('Origin', `https://${MAIN_DOMAIN}`)
        .set('Cookie', signedIn.cookie)
        .send({});
      expect([profile.status, profile.body.code]).toEqual([200, 0]);
      const out = await request(t.url).post('/logout').set('Host', MAIN_DOMAIN).set('Origin', `https://${MAIN_DOMAIN}`).set('Cookie', signedIn.cookie);
      expect([out.status, out.headers.location]).toEqual([303, '/']);
      expect(setCookieLine(out.headers['set-cookie'], 'portal_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    });

    it('readiness says which Redis is read-only (200, degraded: hits still served, sign-in refused), and so do the metrics', async () => {
      // The session Redis is not the cache's: the cache's own is still a master there.
      const cache = announcesThere ? 'read-only' : 'up';
      // A session Redis of its own is named beside it; demoted, sign-in is refused: degraded too, still 200.
      const sessions = announcesThere ? undefined : 'read-only';
      // Readiness answers from its checks' last answers (server/background-check.ts): it follows within a probe.
      let ready = await request(t.url).get('/readyz');
      await waitUntil(
        async () => {
          ready = await request(t.url).get('/readyz');
          return ready.body.checks?.redis === cache && ready.body.checks?.sessions === sessions;
        },
        10_000,
        'readiness to see the demotion',
      );
      expect([ready.status, ready.body.status, ready.body.checks.redis, ready.body.checks.sessions]).toEqual([200, 'degraded', cache, sessions]);
      const metrics = await request(t.url).get('/metrics');
      expect(metrics.text).toMatch(new RegExp(`^portal_redis_read_only ${announcesThere ? 1 : 0}$`, 'm'));
      expect(metrics.text).toMatch(/^portal_redis_up 1$/m);
    });

    it('logged no request as failed (500), and said what was refused', async () => {
      // The announcer's refused writes are reported (every 200 ms).
      if (announcesThere)
        await waitUntil(async () => t.logs.some((line) => /announcement not written/.test(String(line.msg))), 10_000, 'a refused announcement');
      expect(t.logs.filter((line) => line.msg === 'request failed')).toEqual([]);
    });
  });
});
