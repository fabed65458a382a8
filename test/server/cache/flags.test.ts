/**
 * Flags the CMS switches (grey mode, menus, site SEO, ads) reach readers at once through the publish hook, and
 * within their TTL without it: a stale page's background re-render reads them anew instead of from a stale answer.
 * Grey mode, switched without the hook, is found by the flag watch (server/upstream/flag-watch.ts) within its period.
 */
import request from 'supertest';
import { DATA_POLICY, PAGE_POLICY } from '../../../server/cache/policy';
import { MAIN_SITE } from '../../../shared/sites';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { callHook } from '../../support/publish-hook';
import { homeListEntry } from '../../support/upstream-data';
import { pagesOfEveryKind } from '../../support/page-kinds';
import { historyKey, purgeRecord } from '../../../server/cache/purge-record';
import { ageEntries, deleteKeys, eventually, withRedis } from './redis-helpers';

const SECRET = 'flags-test-secret-flags-test-secret-0123';

function hook(t: TestPortal, body: string) {
  return callHook(t.url, SECRET, body);
}

const isGrey = (html: string) => /class="app[^"]*app--grey/.test(html);

describeWithRedis()('flags from the CMS', () => {
  let a: TestPortal;
  let b: TestPortal;
  let paths: string[];
  beforeAll(async () => {
    a = await startTestPortal({ redisUrl: testRedisUrl(), env: { PURGE_SECRET: SECRET }, announceEveryMs: 500 });
    b = await startTestPortal({
      redisUrl: testRedisUrl(),
      upstream: a.upstream,
      cachePrefix: a.cachePrefix,
      env: { PURGE_SECRET: SECRET },
      announceEveryMs: 500,
    });
    const entry = await homeListEntry(a.upstream.url);
    paths = ['/', `/detail/${entry.catid}/${entry.id}`, '/about'];
  });
  afterEach(async () => {
    a.upstream.api.control.reset();
    await deleteKeys(testRedisUrl(), a.cachePrefix);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  /** Every page held fresh by both instances (a HIT from each), not grey. */
  async function warm(): Promise<void> {
    for (const path of paths) {
      for (const t of [a, b]) {
        const held = await eventually(
          () => request(t.url).get(path),
          (res) => res.headers['x-cache'] === 'HIT',
          10_000,
        );
        expect(held.headers['x-cache']).toBe('HIT');
        expect(isGrey(held.text)).toBe(false);
      }
    }
  }

  it('every page carries the flags’ keys, so one hook call reaches all of them', async () => {
    const held = (path: string) =>
      eventually(
        () => request(a.url).get(path),
        (res) => res.headers['x-cache'] === 'HIT',
        10_000,
      );
    const home = await held('/');
    const keys = String(home.headers['surrogate-key']).split(' ');
    expect(keys).toEqual(expect.arrayContaining(['grey', 'menu', `site:${MAIN_SITE.id}`]));
    const detail = await held(paths[1]!);
    expect(String(detail.headers['surrogate-key']).split(' ')).toEqual(expect.arrayContaining(['grey', 'menu', 'ads']));
  });

  it('grey mode switched on shows on the very next request of every page on both instances after one hook call', async () => {
    await warm();
    a.upstream.api.control.setGreyMode('1');
    const answer = await hook(b, JSON.stringify({ tags: ['grey'], soft: false }));
    expect(answer.status).toBe(200);
    expect(answer.body.complete).toBe(true);
    for (const path of paths) for (const t of [a, b]) expect(isGrey((await request(t.url).get(path)).text)).toBe(true);
  });

  it('without the hook, grey mode shows once the page goes stale: its re-render reads the flag anew, not a stale answer', async () => {
    await warm();
    a.upstream.api.control.setGreyMode('1');
    // Time passes: every page past its TTL and the grey-mode answer past its own, both still within grace.
    const age = Math.max(...Object.values(PAGE_POLICY).map((policy) => policy.ttl), DATA_POLICY.greyMode.ttl) + 1;
    expect(age).toBeLessThan(DATA_POLICY.greyMode.ttl + DATA_POLICY.greyMode.grace);
    await ageEntries(testRedisUrl(), a.cachePrefix, age);
    for (const path of paths) {
      // The reader who finds the page stale still gets it at once (one background re-render starts)…
      const first = await request(a.url).get(path);
      expect(first.headers['x-cache']).toBe('STALE');
      // …and what that re-render stores is grey.
      const later = await eventually(
        () => request(b.url).get(path),
        (res) => isGrey(res.text),
        10_000,
      );
      expect(isGrey(later.text)).toBe(true);
    }
  });
});

describeWithRedis()('grey mode without the hook: the flag watch', () => {
  let a: TestPortal;
  let b: TestPortal;
  let paths: string[];
  // The shortest period a deployment may set; the shipped 10 s only adds to the wait (docs/cache.md "Flags").
  const env = { FLAG_WATCH_S: '1' };
  beforeAll(async () => {
    a = await startTestPortal({ redisUrl: testRedisUrl(), env, announceEveryMs: 500 });
    b = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream, cachePrefix: a.cachePrefix, env, announceEveryMs: 500 });
    paths = await pagesOfEveryKind(a.url);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    a.upstream.api.control.reset();
    await deleteKeys(testRedisUrl(), a.cachePrefix);
  });

  const greyMode = () => a.upstream.api.control.stats().byPath['GET /api/common/grey_mode?'] ?? 0;
  const watchPurges = async () =>
    (await withRedis(testRedisUrl(), (client) => client.lrange(historyKey(a.cachePrefix), 0, -1)))
      .map((line) => purgeRecord.parse(JSON.parse(line)))
      .filter((record) => record.source === 'watch');

  /** Every page kind on both instances until it shows `grey`; cached pages are re-rendered by the watch's purge. */
  async function everyPageShows(grey: boolean): Promise<void> {
    for (const path of paths) {
      for (const t of [a, b]) {
        const seen = await eventually(
          () => request(t.url).get(path),
          (res) => isGrey(res.text) === grey,
          30_000,
        );
        expect({ path, grey: isGrey(seen.text) }).toEqual({ path, grey });
      }
    }
  }

  it('a flag left alone purges nothing', async () => {
    for (const path of paths) for (const t of [a, b]) await request(t.url).get(path);
    const asked = greyMode();
    // Both instances have looked at least twice since (each period reloads the flag).
    await eventually(
      async () => greyMode(),
      (count) => count >= asked + 4,
      30_000,
    );
    expect(await watchPurges()).toEqual([]);
  });

  it('switched on and off in the CMS alone, it reaches every page kind on both instances, each change purged by the watch', async () => {
    await everyPageShows(false);
    a.upstream.api.control.setGreyMode('1');
    await everyPageShows(true);
    const on = await watchPurges();
    expect(on.length).toBeGreaterThanOrEqual(1);
    expect(on.every((record) => record.soft && record.tags.join() === 'grey')).toBe(true);
    a.upstream.api.control.setGreyMode('0');
    await everyPageShows(false);
    expect((await watchPurges()).length).toBeGreaterThan(on.length);
  });

  it('a client navigation carries the flag, so an open tab follows it', async () => {
    a.upstream.api.control.setGreyMode('1');
    const answer = await eventually(
      () => request(b.url).get('/_data/page').query({ path: '/about' }),
      (res) => res.body?.page?.greyMode === 'layout',
      30_000,
    );
    expect(answer.body.page.greyMode).toBe('layout');
    a.upstream.api.control.setGreyMode('0');
    const off = await eventually(
      () => request(b.url).get('/_data/page').query({ path: '/about' }),
      (res) => res.body?.page?.greyMode === 'off',
      30_000,
    );
    expect(off.body.page.greyMode).toBe('off');
  });
});
