/** Purges over both stores (the in-process LRU and a real Redis): every selector, dry runs, and bad input. */
import { randomBytes } from 'node:crypto';
import type { CacheEntry } from '../../../server/cache/entry';
import { freshnessOf } from '../../../server/cache/entry';
import { Invalidator, PurgeInputError, urlSelector, type PurgeSelector } from '../../../server/cache/invalidation';
import { announce } from '../../../server/cache/coherence';
import { cacheKey } from '../../../server/cache/keys';
import { MemoryStore } from '../../../server/cache/memory-store';
import { RedisStore } from '../../../server/cache/redis-store';
import type { CacheStore, StaleDepth } from '../../../server/cache/store';
import { resolveSite } from '../../../shared/sites';
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { redisPortalSuite } from '../../support/redis-portal';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { firstHomeArticle } from '../../support/upstream-data';
import { deleteKeys, eventually } from './redis-helpers';

function entry(tags: string[]): CacheEntry {
  return { value: '{}', storedAt: Date.now(), ttl: 60, grace: 60, staleIfError: 60, tags };
}

/** The same suite runs on each store, so the in-process one is a faithful stand-in for Redis. */
function purgeSuite(name: string, makeStore: (prefix: string) => Promise<CacheStore>, cleanup: (prefix: string) => Promise<void>) {
  describe(`purge on the ${name} store`, () => {
    let store: CacheStore;
    let prefix: string;
    let invalidator: Invalidator;
    let announced: string[][];
    const space = () => ({ prefix, buildId: 'b1' });
    const key = (kind: 'data' | 'page', site: number | '_', rest: string) => cacheKey(space(), kind, site, rest);

    beforeEach(async () => {
      prefix = `t${randomBytes(6).toString('hex')}`;
      store = await makeStore(prefix);
      announced = [];
      invalidator = new Invalidator(store, space(), async (keys) => {
        announced.push([...keys]);
      });
      await store.set(key('page', 0, '/detail/2728/1'), entry(['article:1', 'cat:2728', 'site:0', 'page:detail']));
      await store.set(key('page', 0, '/detail/2728/1?page=2'), entry(['article:1', 'site:0', 'page:detail']));
      await store.set(key('page', 3, '/detail/2728/1'), entry(['article:1', 'site:3', 'page:detail']));
      await store.set(key('page', 0, '/'), entry(['cat:2727', 'site:0', 'page:home']));
      await store.set(key('data', '_', 'show:2728:1'), entry(['article:1', 'cat:2728', 'data:article']));
      await store.set(key('data', '_', 'site_info:3'), entry(['site:3', 'data:site']));
      await store.set(cacheKey({ prefix, buildId: 'b0' }, 'page', 0, '/'), entry(['site:0']));
    });
    afterEach(async () => {
      await cleanup(prefix);
      await store.close();
    });

    async function held(): Promise<string[]> {
      return (await store.keysMatching(`${prefix}:b1:*`)).filter((k) => !k.includes(':tag:')).sort();
    }

    it('purges by tag: every page and call that holds the article, on every site', async () => {
      const result = await invalidator.purge({ by: 'tag', tag: 'article:1' });
      expect(result.deleted).toBe(4);
      // The pages go; the answer is kept expired with the article noted as withdrawn (read as missing, since it is
      // the article's own; a list would be shown without it while the CMS fails: content-service.ts).
      const data = key('data', '_', 'show:2728:1');
      expect(await held()).toEqual([data, key('data', '_', 'site_info:3'), key('page', 0, '/')].sort());
      const kept = await store.get(data);
      expect([freshnessOf(kept!), kept!.withdrawn]).toEqual(['expired', ['article:1']]);
      expect(announced).toEqual([expect.arrayContaining(result.keys)]);
      // Again: no page left, the answer (still held, counted) noted once.
      const again = await invalidator.purge({ by: 'tag', tag: 'article:1' });
      expect([again.keys, again.deleted, (await store.get(data))!.withdrawn]).toEqual([[data], 1, ['article:1']]);
    });

    it('deletes the answers of a tag that names no single item (a category)', async () => {
      await invalidator.purge({ by: 'tag', tag: 'cat:2728' });
      expect(await store.get(key('data', '_', 'show:2728:1'))).toBeNull();
    });

    it('keeps findable what is indexed under the tag while the purge runs, and leaves the index clean of what it deleted', async () => {
      const late = key('page', 0, '/written-while-purging');
      // A category's tag: every entry under it is deleted (an item's answers stay, marked: see above).
      // Written between the purge's read of the index and its deletes, as a render ending just then writes.
      const racing = new Proxy(store, {
        get: (target, name) =>
          name === 'existing'
            ? async (keys: readonly string[]) => {
                const held = await target.existing(keys);
                await target.set(late, entry(['cat:2728', 'site:0']));
                return held;
              }
            : Reflect.get(target, name),
      });
      const first = await new Invalidator(racing, space()).purge({ by: 'tag', tag: 'cat:2728' });
      expect(first.keys).not.toContain(late);
      expect(await store.keysWithTag(prefix, 'cat:2728')).toEqual([late]);
      const second = await invalidator.purge({ by: 'tag', tag: 'cat:2728' });
      expect(second.keys).toEqual([late]);
      expect(await held()).not.toContain(late);
      expect(await store.keysWithTag(prefix, 'cat:2728')).toEqual([]);
    });

    it('a soft purge never brings back a page a hard purge deleted as it ran', async () => {
      const page = key('page', 0, '/detail/2728/1');
      // The page goes just before the soft purge marks it, as a correction followed at once by a URL purge does.
      const racing = new Proxy(store, {
        get: (target, name) =>
          name === 'markStale'
            ? async (asked: string, now: number, loadsFrom: number, depth?: StaleDepth) => {
                if (asked === page) await target.deleteKeys([page]);
                return target.markStale(asked, now, loadsFrom, depth);
              }
            : Reflect.get(target, name),
      });
      await new Invalidator(racing, space()).purge({ by: 'tag', tag: 'article:1' }, { soft: true });
      expect(await store.get(page)).toBeNull();
    });

    it('a soft purge leaves fresh a page rendered from what the CMS said after its data went', async () => {
      const page = key('page', 0, '/detail/2728/1');
      const racing = new Proxy(store, {
        get: (target, name) =>
          name === 'markStale'
            ? async (asked: string, now: number, loadsFrom: number, depth?: StaleDepth) => {
                if (asked === page) await target.set(page, { ...entry(['article:1', 'site:0']), value: '{"new":true}', since: loadsFrom });
                return target.markStale(asked, now, loadsFrom, depth);
              }
            : Reflect.get(target, name),
      });
      await new Invalidator(racing, space()).purge({ by: 'tag', tag: 'article:1' }, { soft: true });
      const after = await store.get(page);
      expect(after?.value).toBe('{"new":true}');
      expect(after!.storedAt).toBeGreaterThan(Date.now() - after!.ttl * 1000);
    });

    it('a soft purge marks stale each page it finds unchanged', async () => {
      const page = key('page', 0, '/detail/2728/1');
      const before = await store.get(page);
      await invalidator.purge({ by: 'tag', tag: 'article:1' }, { soft: true });
      const after = await store.get(page);
      expect(after?.value).toEqual(before?.value);
      expect(after!.storedAt).toBeLessThanOrEqual(Date.now() - after!.ttl * 1000);
      // Its data entries are expired, kept: the re-render reads what the CMS says now, and falls back on them
      // (stale-if-error) only when the CMS fails.
      const data = await store.get(key('data', '_', 'show:2728:1'));
      expect(data).not.toBeNull();
      expect(freshnessOf(data!)).toBe('expired');
    });

    it('counts without deleting on a dry run', async () => {
      const dry = await invalidator.purge({ by: 'tag', tag: 'cat:2728' }, { dryRun: true });
      expect(dry).toMatchObject({ dryRun: true, deleted: 0 });
      expect(dry.keys).toHaveLength(2);
      expect(await held()).toHaveLength(6);
      expect(announced).toEqual([]);
    });

    it('purges a route with every query variant, or one variant, of one site only', async () => {
      const one = await invalidator.purge(await urlSelector('/detail/2728/1?page=2&utm_source=x', () => 0, false));
      // The page reads no query parameter, so the normalised variant is the bare path.
      expect(one.keys).toEqual([key('page', 0, '/detail/2728/1')]);
      await store.set(key('page', 0, '/detail/2728/1'), entry(['site:0']));
      const every = await invalidator.purge(await urlSelector('https://www.example.cn/detail/2728/1', () => 0, true));
      expect(every.keys.sort()).toEqual([key('page', 0, '/detail/2728/1'), key('page', 0, '/detail/2728/1?page=2')].sort());
      expect(await held()).toContain(key('page', 3, '/detail/2728/1'));
    });

    it('purges by URL exactly that page: no other page sharing its prefix, whatever spelling is typed', async () => {
      const pages = [
        '/',
        '/?page=2',
        '/about',
        '/detail/2728/1',
        '/detail/2728/12',
        '/detail/2728/1?page=2',
        '/detail/27281/1',
        '/search/a*b/1',
        '/search/aXb/1',
        '/search/a[b]/1',
        '/search/ab/1',
        '/search/b/1',
      ];
      for (const page of pages) await store.set(key('page', 0, page), entry(['site:0']));
      const covered = async (url: string, everyQuery: boolean) =>
        (await invalidator.purge(await urlSelector(url, () => 0, everyQuery), { dryRun: true })).keys.map((k) => k.slice(key('page', 0, '').length)).sort();

      expect(await covered('https://www.qnnews.cn/', true)).toEqual(['/', '/?page=2']);
      expect(await covered('https://www.qnnews.cn', false)).toEqual(['/']);
      expect(await covered('/detail/2728/1', true)).toEqual(['/detail/2728/1', '/detail/2728/1?page=2']);
      for (const spelling of ['/detail/%32728/1', '/detail/2728/1/', '/detail//2728/./1', '/x/../detail/2728/%31', '/detail/2728/1#top', '\\detail\\2728\\1']) {
        expect(await covered(spelling, true)).toEqual(['/detail/2728/1', '/detail/2728/1?page=2']);
      }
      // Glob metacharacters in a path are literal: `*`, `?` (encoded), `[…]` (encoded) name one page each.
      expect(await covered('/search/a*b/1', true)).toEqual(['/search/a*b/1']);
      expect(await covered('/search/%61*b/1', false)).toEqual(['/search/a*b/1']);
      expect(await covered('/search/a[b]/1', true)).toEqual(['/search/a[b]/1']);
      expect(await covered('/search/%5Bab%5D/1', true)).toEqual([]);
      expect(await covered('/search/a%3Fb/1', true)).toEqual([]);
      expect(await covered('/search/?/1', true)).toEqual([]);
      await invalidator.purge(await urlSelector('/detail/2728/%31', () => 0, true));
      expect(await store.get(key('page', 0, '/detail/2728/1'))).toBeNull();
      expect(await store.get(key('page', 0, '/detail/2728/12'))).not.toBeNull();
    });

    it('refuses a URL that is not a page URL or whose path has no spelling', async () => {
      for (const bad of ['not_a_url', 'ht!tp://bad_url', 'ftp://www.qnnews.cn/', '/detail/%zz/1', 'detail/2728/1']) {
        await expect(urlSelector(bad, () => 0, true)).rejects.toBeInstanceOf(PurgeInputError);
      }
    });

    it('purges a site (its pages and the data tagged with it), an exact key, and a whole build', async () => {
      const site = await invalidator.purge({ by: 'site', siteId: 3 });
      expect(site.keys.sort()).toEqual([key('data', '_', 'site_info:3'), key('page', 3, '/detail/2728/1')].sort());
      expect((await invalidator.purge({ by: 'key', key: key('page', 0, '/') })).deleted).toBe(1);
      const all = await invalidator.purge({ by: 'all' });
      expect(all.deleted).toBe(3);
      expect(await held()).toEqual([]);
      // Another build of the prefix is not part of this build's purge.
      expect(await store.get(cacheKey({ prefix, buildId: 'b0' }, 'page', 0, '/'))).not.toBeNull();
    });

    it('refuses bad selectors with a clear error and deletes nothing', async () => {
      const bad: PurgeSelector[] = [
        { by: 'tag', tag: 'article 1' },
        { by: 'tag', tag: '*' },
        { by: 'key', key: 'other:b1:page:0:/' },
        { by: 'key', key: `${prefix}:*` },
        { by: 'site', siteId: 99 },
        { by: 'url', siteId: 0, pathname: 'detail', search: null },
      ];
      for (const selector of bad) await expect(invalidator.purge(selector)).rejects.toBeInstanceOf(PurgeInputError);
      expect(await held()).toHaveLength(6);
    });
  });
}

purgeSuite(
  'memory',
  async () => new MemoryStore(1 << 20),
  async () => undefined,
);

describeWithRedis()('with Redis', () => {
  purgeSuite(
    'Redis',
    async () => {
      const store = new RedisStore({ url: testRedisUrl() });
      await eventually(async () => store.isAvailable(), Boolean, 5000);
      return store;
    },
    (prefix) => deleteKeys(testRedisUrl(), prefix),
  );
});

describeWithRedis()('purge against a live portal', () => {
  const suite = redisPortalSuite();

  it('drops the article page and its data on a tag purge, so the next reader sees the edit', async () => {
    const raw = await firstHomeArticle(suite.portal.upstream.url, HOME_CATID);
    const path = `/detail/${raw.catid}/${raw.id}`;
    await request(suite.portal.url).get(path);
    expect((await request(suite.portal.url).get(path)).headers['x-cache']).toBe('HIT');
    suite.portal.upstream.api.control.overrideArticle(raw.id, { title: '更正后的标题' });
    try {
      expect((await request(suite.portal.url).get(path)).text).not.toContain('更正后的标题');
      const store = new RedisStore({ url: testRedisUrl() });
      await eventually(async () => store.isAvailable(), Boolean, 5000);
      // An operator names no build: every build of the prefix is purged.
      const invalidator = new Invalidator(store, { prefix: suite.portal.cachePrefix, buildId: '*' }, (keys) =>
        announce(store.client, suite.portal.cachePrefix, { kind: 'evict', keys: [...keys] }),
      );
      const result = await invalidator.purge({ by: 'tag', tag: `article:${raw.id}` });
      await store.close();
      expect(result.keys.some((k) => k.includes(':page:0:/detail/'))).toBe(true);
      expect(result.keys.some((k) => k.includes(`:data:_:show:${raw.catid}:${raw.id}`))).toBe(true);
      // The portal drops its L1 copy on the announcement, a publish round trip later.
      const after = await eventually(
        () => request(suite.portal.url).get(path),
        (res) => res.headers['x-cache'] === 'MISS',
        5000,
      );
      expect(after.headers['x-cache']).toBe('MISS');
      expect(after.text).toContain('更正后的标题');
    } finally {
      suite.portal.upstream.api.control.reset();
    }
  });
});

describe('urlSelector', () => {
  it('takes the site from the URL host and keeps the path encoded as page keys hold it', async () => {
    const selector = await urlSelector('https://bj.qnnews.cn/search/中?utm_source=x', (host) => resolveSite(host).id, false);
    expect(selector).toEqual({ by: 'url', siteId: resolveSite('bj.qnnews.cn').id, pathname: '/search/%E4%B8%AD', search: '' });
    expect(resolveSite('bj.qnnews.cn').id).not.toBe(0);
  });
});
