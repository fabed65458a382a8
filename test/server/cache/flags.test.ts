/**
 * Flags the CMS switches (grey mode, menus, site SEO, ads) reach readers at once through the publish hook, and
 * within their TTL without it: a stale page's background re-render reads them anew instead of from a stale answer.
 */
import request from 'supertest';
import { DATA_POLICY, PAGE_POLICY } from '../../../server/cache/policy';
import { MAIN_SITE } from '../../../shared/sites';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { callHook } from '../../support/publish-hook';
import { homeListEntry } from '../../support/upstream-data';
import { ageEntries, deleteKeys, eventually } from './redis-helpers';

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
