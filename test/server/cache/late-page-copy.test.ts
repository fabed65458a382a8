/**
 * A copy of a page the purge's sweeps did not reach (issue 39: a list page served as a HIT, 16 s old, after the hook
 * correcting an article it shows had answered): written back to Redis by an instance that had not heard of the
 * purge, or read into L1 from there between the two sweeps. Its render began before the purge, and it shows what
 * the purge took away: an instance that has noted the purge serves it as missing after a hard purge and as stale
 * after a soft one, whichever way it reads it (PageCache.lookup, lookupForm, lookupNow).
 */
import Redis from 'ioredis';
import { Cache } from '../../../server/cache/cache';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PageCache } from '../../../server/cache/page-cache';
import { pagePolicyFor } from '../../../server/cache/policy';
import { PurgeClock } from '../../../server/cache/purge-clock';
import type { PurgeSelector } from '../../../server/cache/invalidation';
import { MAIN_SITE } from '../../../shared/sites';
import { pageKeyOf, type TestPortal } from '../../support/portal';
import { callHook } from '../../support/publish-hook';
import { redisPortalSuite } from '../../support/redis-portal';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { homeListEntry } from '../../support/upstream-data';
import { eventually } from './redis-helpers';

const POLICY = pagePolicyFor('list');
const HTML = '<!DOCTYPE html><html><head></head><body>旧标题</body></html>';
const TAGS = ['page:list', 'article:33722'];

describe('a page copy made before a purge this instance noted', () => {
  const rendered = Date.now() - 20_000;

  async function heldCopy(clock: PurgeClock) {
    const pageCache = new PageCache(new Cache(new MemoryStore(1 << 20), {}, null, clock), { prefix: 'late', buildId: 'b1' });
    const key = pageCache.keyFor(0, '/xinwen/fazhi/V1/2714');
    await pageCache.store(key, POLICY, HTML, 'bm9uY2UtMDAwMDAwMDAwMQ==', { tags: TAGS, startedAt: rendered });
    return { pageCache, key };
  }

  /** Every way a page is read, each one's lookup (or null). */
  async function readEveryWay(pageCache: PageCache, key: string) {
    return [await pageCache.lookup(key), await pageCache.lookupForm(key, 'gzip'), pageCache.lookupNow(key) ?? null];
  }

  it.each<[string, PurgeSelector, string]>([
    ['its tag', { by: 'tag', tag: 'article:33722' }, '*'],
    ['its URL', { by: 'url', siteId: 0, pathname: '/xinwen/fazhi/V1/2714', search: null }, 'b1'],
    ['its site', { by: 'site', siteId: 0 }, '*'],
    ['everything', { by: 'all' }, '*'],
  ])('is gone after a hard purge of %s, however it is read', async (_what, selector, build) => {
    const clock = new PurgeClock();
    const { pageCache, key } = await heldCopy(clock);
    expect((await readEveryWay(pageCache, key)).map((lookup) => lookup?.freshness)).toEqual(['fresh', 'fresh', 'fresh']);
    clock.note({ selectors: [selector], build }, rendered + 5_000);
    expect(await readEveryWay(pageCache, key)).toEqual([null, null, null]);
  });

  it('is stale from the soft purge’s moment, as the sweep marks a page it reaches', async () => {
    const clock = new PurgeClock();
    const { pageCache, key } = await heldCopy(clock);
    const purgedAt = rendered + 5_000;
    clock.note({ selectors: [{ by: 'tag', tag: 'article:33722' }], build: '*', soft: true }, purgedAt);
    for (const lookup of await readEveryWay(pageCache, key)) {
      expect(lookup?.freshness).toBe('stale');
      expect(lookup!.storedAt).toBeLessThanOrEqual(purgedAt - POLICY.ttl * 1000);
    }
    // A hard purge noted after it: gone.
    clock.note({ selectors: [{ by: 'tag', tag: 'page:list' }], build: '*' }, purgedAt + 1);
    expect(await readEveryWay(pageCache, key)).toEqual([null, null, null]);
  });

  it.each<[string, PurgeSelector, string, number]>([
    ['another article', { by: 'tag', tag: 'article:1' }, '*', 5_000],
    ['another site', { by: 'site', siteId: 3 }, '*', 5_000],
    ['another build', { by: 'all' }, 'b0', 5_000],
    ['its tag, before its render began', { by: 'tag', tag: 'article:33722' }, '*', -1],
  ])('is left fresh by a purge of %s', async (_what, selector, build, after) => {
    const clock = new PurgeClock();
    const { pageCache, key } = await heldCopy(clock);
    clock.note({ selectors: [selector], build }, rendered + after);
    expect((await readEveryWay(pageCache, key)).map((lookup) => lookup?.freshness)).toEqual(['fresh', 'fresh', 'fresh']);
  });
});

// Two instances on one Redis: the copy Redis held before the hook is put back after the hook answered, as an
// instance that rendered it before the purge and had not heard of it would have written it.
describeWithRedis()('a page written back to Redis after the publish hook answered', () => {
  const SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';
  const suite = redisPortalSuite({ instances: 2, env: { PURGE_SECRET: SECRET } });

  const get = async (t: TestPortal, path: string) => {
    const res = await fetch(t.url + path, { headers: { host: MAIN_SITE.domain } });
    return { cache: res.headers.get('x-cache'), html: await res.text() };
  };

  it.each([
    ['hard', false, 'MISS'],
    ['soft', true, 'STALE'],
  ])('%s: no instance serves it as fresh', async (_name, soft, expected) => {
    const { portal: a, peer: b } = suite;
    const entry = await homeListEntry(a.upstream.url, soft ? 4 : 5);
    const path = `/V1/${entry.catid}`;
    const old = entry.list_title || entry.title;
    const key = pageKeyOf(a, MAIN_SITE.id, path);
    const client = new Redis(testRedisUrl());
    try {
      for (const t of [a, b]) {
        const held = await eventually(
          () => get(t, path),
          (answer) => answer.cache === 'HIT',
          10_000,
        );
        expect([held.cache, held.html.includes(old)]).toEqual(['HIT', true]);
      }
      const copy = await client.getBuffer(key);
      expect(copy).not.toBeNull();
      const corrected = `更正：${old}`;
      expect(a.upstream.api.control.overrideArticle(entry.id, { title: corrected, list_title: corrected })).toBe(true);
      const answer = await callHook(a.url, SECRET, { tags: [`article:${entry.id}`], soft, event: `late copy ${soft}` });
      expect([answer.status, answer.body.complete]).toEqual([200, true]);
      for (const [name, t] of [
        ['a', a],
        ['b', b],
      ] as const) {
        // Put back before each instance asks: the first one's render stores the corrected page over it.
        await client.set(key, copy!, 'PX', 600_000);
        const served = await get(t, path);
        expect([name, served.cache]).toEqual([name, expected]);
        // Hard: rendered for this reader from what the CMS says now. Soft: the old page while it is re-rendered.
        expect([name, served.html.includes(soft ? old : corrected)]).toEqual([name, true]);
        // What it stores next (its render, or the background re-render) is the corrected page, and it is stored
        // before the copy is put back for the other instance: a write landing after would replace the copy.
        const stored = await eventually(
          () => get(t, path),
          (again) => again.cache === 'HIT',
          10_000,
        );
        expect([name, stored.html.includes(corrected)]).toEqual([name, true]);
      }
    } finally {
      client.disconnect();
    }
  });
});
