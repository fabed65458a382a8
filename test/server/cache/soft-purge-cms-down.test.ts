/**
 * A soft purge expires the data answers it covers instead of deleting them (server/cache/invalidation.ts): the next
 * render reads what the CMS says now, and while the CMS fails it falls back on them (stale-if-error), so a
 * correction sent during a CMS outage leaves no page without its data. A page built on that fallback is sent and
 * not stored. A hard purge of an item (a takedown) expires the answers that list it with the item noted as
 * withdrawn: a page built on them while the CMS fails shows the rest without it, and the item's own page is a
 * 503. Run on both stores: in-process, and Redis.
 */
import { MAIN_SITE } from '../../../shared/sites';
import { HOME_CATID } from '../../../shared/constants';
import { pageKeyOf, startTestPortal, type TestPortal } from '../../support/portal';
import { callHook } from '../../support/publish-hook';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { firstHomeArticle } from '../../support/upstream-data';
import { deleteKeys } from './redis-helpers';

const SECRET = 'a-purge-secret-of-the-test-0123456789abcdef';

function suite(redis: boolean): void {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ ...(redis ? { redisUrl: testRedisUrl() } : {}), env: { PURGE_SECRET: SECRET } });
  });
  afterEach(() => t.upstream.api.control.reset());
  afterAll(async () => {
    await t?.close();
    if (redis && t) await deleteKeys(testRedisUrl(), t.cachePrefix);
  });

  it('a page no cache holds is built from the answers a correction expired while the CMS fails, and not stored', async () => {
    const home = await fetch(`${t.url}/`);
    expect(home.status).toBe(200);
    await home.arrayBuffer();
    const pageKey = pageKeyOf(t, MAIN_SITE.id, '/');
    expect(await t.portal.store.get(pageKey)).not.toBeNull();
    const article = await firstHomeArticle(t.upstream.url, HOME_CATID);

    t.upstream.api.control.setFailures([{ path: '/', mode: 'http500' }]);
    const purged = await callHook(t.url, SECRET, { tags: [`article:${article.id}`], soft: true });
    expect(purged.status).toBe(200);
    // The page itself left every cache (evicted before its answers, as an LRU does): only the answers remain.
    await t.portal.store.delete(pageKey);

    const built = await fetch(`${t.url}/`);
    const body = await built.text();
    expect([built.status, built.headers.get('x-cache')]).toEqual([200, 'MISS']);
    expect(body).toContain(`/detail/${article.catid}/${article.id}`);
    // Built on answers past their grace: sent, not stored, so the CMS's answer makes the next one.
    expect(await t.portal.store.get(pageKey)).toBeNull();

    t.upstream.api.control.reset();
    const after = await fetch(`${t.url}/`);
    await after.arrayBuffer();
    expect(after.status).toBe(200);
    expect(await t.portal.store.get(pageKey)).not.toBeNull();
  });

  it('a takedown while the CMS fails: the pages listing it are built without it, its own page is refused', async () => {
    const article = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const own = `/detail/${article.catid}/${article.id}`;
    for (const path of ['/', own]) {
      const res = await fetch(`${t.url}${path}`);
      await res.arrayBuffer();
      expect([path, res.status]).toEqual([path, 200]);
    }
    expect(await (await fetch(`${t.url}/`)).text()).toContain(own);

    t.upstream.api.control.setFailures([{ path: '/', mode: 'http500' }]);
    const purged = await callHook(t.url, SECRET, { tags: [`article:${article.id}`], soft: false });
    expect(purged.status).toBe(200);

    const home = await fetch(`${t.url}/`);
    const body = await home.text();
    expect([home.status, body.includes(own), body.includes(article.title)]).toEqual([200, false, false]);
    // The rest of its list is there: the block it headed shows the next headlines.
    expect((body.match(/href="\/detail\/\d+\/\d+"/g) ?? []).length).toBeGreaterThan(20);
    const gone = await fetch(`${t.url}${own}`);
    await gone.arrayBuffer();
    expect([gone.status, gone.headers.get('retry-after')]).toEqual([503, expect.stringMatching(/^\d+$/)]);
  });
}

describe('a soft purge while the CMS fails, in-process store', () => suite(false));
describeWithRedis()('a soft purge while the CMS fails, Redis store', () => suite(true));
