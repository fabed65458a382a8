/**
 * Redis can hold anything in a lock's or an entry's place (set by hand, by a foreign client, by an older build):
 * a key with no expiry or a far longer one, a hash, a list, a set, bytes that are no entry. Whatever it holds, a
 * page answers within the lock timeout (and a render) with fresh content, never a 500, and what it stores is a
 * good entry. Each request below carries a deadline of the lock timeout plus a render: a wait that does not end
 * fails it.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { Cache } from '../../../server/cache/cache';
import { announce } from '../../../server/cache/coherence';
import type { CacheEntry } from '../../../server/cache/entry';
import { decodeEntry, encodeEntry } from '../../../server/cache/entry-codec';
import { cacheKey } from '../../../server/cache/keys';
import { lockKey, RedisLock } from '../../../server/cache/redis-lock';
import { RedisStore } from '../../../server/cache/redis-store';
import { HOME_CATID } from '../../../shared/constants';
import { STORED } from '../../../server/upstream/entity-schemas';
import { MAIN_SITE } from '../../../shared/sites';
import { CMS_LIST_MAX, CMS_SUMMARY_MAX, type RawArticleListItem, type RawCategory } from '../../../server/upstream/wire';
import { pageKeyOf, startTestPortal, type TestPortal } from '../../support/portal';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { articleList, homeCategories, upstreamData } from '../../support/upstream-data';
import { deleteKeys, dropL1Copies, eventually, suiteRedis } from './redis-helpers';

const LOCK_TIMEOUT_MS = 2000;
/** A render of an article page on a busy machine (two cores, stress-ng beside the suite): generous on purpose. */
const RENDER_ALLOWANCE_MS = 6000;

/** What a test puts in a key's place; each is something no holder or store of the portal would write. */
type Plant = (redis: Redis, key: string) => Promise<unknown>;

const FOREIGN: Record<string, Plant> = {
  'a string with no expiry': (redis, key) => redis.set(key, 'x'),
  "a holder's token with no expiry": (redis, key) => redis.set(key, randomBytes(12).toString('base64url')),
  'a string expiring in an hour': (redis, key) => redis.set(key, 'x', 'PX', 3_600_000),
  'a hash': (redis, key) => redis.hset(key, 'holder', 'x'),
  'a list': (redis, key) => redis.rpush(key, 'x'),
  'a set': (redis, key) => redis.sadd(key, 'x'),
  'a sorted set': (redis, key) => redis.zadd(key, 1, 'x'),
  'a hash expiring within the lock timeout': (redis, key) => redis.multi().hset(key, 'holder', 'x').pexpire(key, LOCK_TIMEOUT_MS).exec(),
};

const NOT_AN_ENTRY: Record<string, Plant> = {
  ...FOREIGN,
  'random bytes': (redis, key) => redis.set(key, randomBytes(3000)),
  'a framed head whose metadata runs past the end': (redis, key) => redis.set(key, Buffer.from([0x00, 0x43, 0x45, 0x31, 0xff, 0xff, 0xff, 0xff, 0x7b])),
  'a framed head with metadata that is no entry': (redis, key) => {
    const meta = Buffer.from('{"storedAt":"soon","tags":7}');
    const head = Buffer.from([0x00, 0x43, 0x45, 0x31, 0, 0, 0, meta.length]);
    return redis.set(key, Buffer.concat([head, meta, Buffer.from('<html>')]));
  },
  'JSON that is no entry': (redis, key) => redis.set(key, '{"value":{"title":"planted"},"storedAt":null}'),
  'an entry of absurd dates': (redis, key) => redis.set(key, JSON.stringify({ value: '{}', storedAt: 'x', ttl: -1, grace: 1e308, staleIfError: 0, tags: [] })),
  'truncated JSON': (redis, key) => redis.set(key, '{"value":"'),
  'an entry stored a year from now': (redis, key) => redis.set(key, plantedEntry({ storedAt: Date.now() + 365 * 86_400_000 })),
  'an entry fresh for ever': (redis, key) => redis.set(key, plantedEntry({ ttl: 1e300 })),
  'an entry of negative windows': (redis, key) => redis.set(key, plantedEntry({ ttl: -1, grace: -1e9, staleIfError: -5 })),
};

/** Values of the right codec and of another shape than any call stores: each must read as a miss. */
const WRONG_SHAPES: Record<string, string> = {
  'a number': '42',
  'a string': '"planted"',
  'an array of numbers': '[1,2,3]',
  'an empty object': '{}',
  'an object of the right fields and wrong types': JSON.stringify({ id: 'x', catid: [], title: 7, items: 'none', total: '3', catname: null }),
  'an object with a nested list of another shape': JSON.stringify({ items: [{ id: 1 }], total: 1, page: 1, pageSize: 20, tags: 'x', children: [{}] }),
  'a list of categories missing their children': JSON.stringify([{ catid: 1, catname: '要闻', parentid: 0, categoryDirectory: 'yw' }]),
};

/** Entry metadata of the right types, with times no store of the portal writes; its value is no page or answer. */
function plantedEntry(times: { storedAt?: number; ttl?: number; grace?: number; staleIfError?: number }): string {
  return JSON.stringify({ value: '{"planted":true}', storedAt: Date.now(), ttl: 60, grace: 0, staleIfError: 0, tags: [], ...times });
}

describeWithRedis()('whatever Redis holds in a lock\u2019s or an entry\u2019s place', () => {
  let t: TestPortal;
  let redis: Redis;
  let articles: RawArticleListItem[];
  let next = 0;
  let categoryIds: number[];
  let nextCat = 0;
  let menuName: string;
  beforeAll(async () => {
    t = await startTestPortal({ redisUrl: testRedisUrl(), env: { CACHE_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS) } });
    redis = new Redis(testRedisUrl());
    // One article per case, so no case meets another's entries (in Redis or in the portal's L1).
    const categories = await homeCategories(t.upstream.url, HOME_CATID);
    const lists = await Promise.all(categories.map((category) => articleList(t.upstream.url, category.catid, 1, 20)));
    articles = [...new Map(lists.flatMap((list) => list.lists).map((entry) => [entry.id, entry])).values()];
    categoryIds = lists.filter((list) => list.total > 0).map((list) => list.lists[0]!.catid);
    menuName = (await upstreamData<RawCategory[]>(t.upstream.url, '/api/common/get_menu_list'))[0]!.catname;
  });

  function nextCategory(): number {
    const catid = categoryIds[nextCat];
    nextCat += 1;
    if (catid === undefined) throw new Error(`the reference API has only ${categoryIds.length} home categories with articles`);
    return catid;
  }
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), t.cachePrefix);
    redis.disconnect();
    await t.close();
  });

  function nextArticle(): RawArticleListItem {
    const entry = articles[next];
    next += 1;
    if (!entry) throw new Error(`the reference API has only ${articles.length} home articles`);
    return entry;
  }

  const dataKeyOf = (entry: RawArticleListItem) =>
    cacheKey({ prefix: t.cachePrefix, buildId: t.portal.assets.buildId }, 'data', '_', `show:${entry.catid}:${entry.id}`);

  /** The article page, answered within the lock timeout and a render, or the test fails. */
  async function articlePage(entry: RawArticleListItem) {
    const res = await request(t.url)
      .get(`/detail/${entry.catid}/${entry.id}`)
      .timeout({ response: LOCK_TIMEOUT_MS + RENDER_ALLOWANCE_MS });
    expect(res.status).toBe(200);
    expect(res.text).toContain(entry.title.slice(0, 4));
    return res;
  }

  /**
   * The good entry the key comes to hold (never what was planted): a page is stored as its response ends, so it
   * lands a moment after the reader has it.
   */
  async function storedEntry(key: string): Promise<CacheEntry> {
    const held = await eventually(
      async () => ((await redis.type(key)) === 'string' ? decodeEntry((await redis.getBuffer(key))!) : null),
      (decoded) => decoded !== null,
    );
    expect(held).toEqual(expect.objectContaining({ storedAt: expect.any(Number), tags: expect.any(Array) }));
    return held!;
  }

  it.each(Object.entries(FOREIGN))('a lock key holding %s: the page is answered fresh, and the key is taken over and released', async (_name, plant) => {
    const entry = nextArticle();
    const lock = lockKey(dataKeyOf(entry));
    await plant(redis, lock);
    t.upstream.api.control.reset();
    await articlePage(entry);
    expect(t.upstream.api.control.stats().byPath[`GET /show/${entry.catid}-${entry.id}.html?`]).toBe(1);
    expect(await redis.exists(lock)).toBe(0);
    await storedEntry(dataKeyOf(entry));
  });

  it("a lock a dead holder left (a holder's token expiring within the lock timeout) is waited out, not taken", async () => {
    const entry = nextArticle();
    const lock = lockKey(dataKeyOf(entry));
    await redis.set(lock, randomBytes(12).toString('base64url'), 'PX', LOCK_TIMEOUT_MS);
    t.upstream.api.control.reset();
    await articlePage(entry);
    // Loaded by this instance once the lock expired: one call, and the dead holder's token is gone.
    expect(t.upstream.api.control.stats().byPath[`GET /show/${entry.catid}-${entry.id}.html?`]).toBe(1);
    expect(await redis.exists(lock)).toBe(0);
  });

  it.each(Object.entries(NOT_AN_ENTRY))("an article's data key holding %s: a miss, loaded and stored over it", async (_name, plant) => {
    const entry = nextArticle();
    await plant(redis, dataKeyOf(entry));
    await articlePage(entry);
    await storedEntry(dataKeyOf(entry));
    // Not poisoned: the next reader gets the article too.
    await articlePage(entry);
  });

  it.each(Object.entries(NOT_AN_ENTRY))("an article's page key holding %s: a miss, rendered and stored over it", async (_name, plant) => {
    const entry = nextArticle();
    const pageKey = pageKeyOf(t, MAIN_SITE.id, `/detail/${entry.catid}/${entry.id}`);
    await plant(redis, pageKey);
    const first = await articlePage(entry);
    expect(first.headers['x-cache']).toBe('MISS');
    await storedEntry(pageKey);
    const second = await articlePage(entry);
    expect(second.headers['x-cache']).toBe('HIT');
  });

  /**
   * A well-formed entry (it decodes: the codec and the metadata are fine) whose value is not what the call stores:
   * a miss, loaded again and stored over, never a 500 (server/upstream/entity-schemas.ts, server/cache/cache.ts).
   */
  function plantValue(key: string, value: string): Promise<unknown> {
    return redis.set(key, JSON.stringify({ value, storedAt: Date.now(), ttl: 3600, grace: 3600, staleIfError: 0, tags: [] }));
  }

  it.each(Object.entries(WRONG_SHAPES))("an article's data entry holding %s: a miss, the article fetched again and stored over it", async (_name, value) => {
    const entry = nextArticle();
    const key = dataKeyOf(entry);
    await plantValue(key, value);
    t.upstream.api.control.reset();
    await articlePage(entry);
    expect(t.upstream.api.control.stats().byPath[`GET /show/${entry.catid}-${entry.id}.html?`]).toBe(1);
    const stored = await eventually(
      async () => decodeEntry((await redis.getBuffer(key))!),
      (held) => held !== null && STORED.article.safeParse(JSON.parse(String(held.value))).success,
    );
    expect(STORED.article.parse(JSON.parse(String(stored!.value)))).toEqual(expect.objectContaining({ id: entry.id }));
    await articlePage(entry);
  });

  it.each(Object.entries(WRONG_SHAPES))(
    "a category list's data entry holding %s: the list page is answered from a list fetched again",
    async (_name, value) => {
      const catid = nextCategory();
      const key = cacheKey({ prefix: t.cachePrefix, buildId: t.portal.assets.buildId }, 'data', '_', `list:${catid}:1:20`);
      await plantValue(key, value);
      t.upstream.api.control.reset();
      const res = await request(t.url)
        .get(`/V1/${catid}`)
        .timeout({ response: LOCK_TIMEOUT_MS + RENDER_ALLOWANCE_MS });
      expect(res.status).toBe(200);
      expect(t.upstream.api.control.stats().byPath[`GET /list/${catid}/1.html?pagesize=20`]).toBe(1);
      const first = (await articleList(t.upstream.url, catid, 1, 20)).lists[0]!;
      expect(res.text).toContain(`/detail/${first.catid}/${first.id}`);
    },
  );

  it('a well-formed list entry inflated in Redis (3000 items, 100 000-character texts) sizes no page: cut as it is read', async () => {
    const catid = nextCategory();
    const key = cacheKey({ prefix: t.cachePrefix, buildId: t.portal.assets.buildId }, 'data', '_', `list:${catid}:1:20`);
    const first = (await articleList(t.upstream.url, catid, 1, 20)).lists[0]!;
    // The first ten items' texts are long (3000 such would not fit in one JavaScript string to plant).
    const text = (index: number) => (index < 10 ? '长'.repeat(100_000) : `条目${index}`);
    const item = (index: number) => ({
      id: first.id + index,
      catid,
      title: `${first.title}${text(index)}`,
      fullTitle: text(index),
      description: text(index),
      thumb: '',
      adddate: first.adddate,
      source: text(index),
    });
    const inflated = { items: Array.from({ length: 3000 }, (_, index) => item(index)), total: 3000, page: 1, pageSize: 20 };
    await plantValue(key, JSON.stringify(inflated));
    await dropL1Copies(testRedisUrl(), t.cachePrefix);
    t.upstream.api.control.reset();
    const res = await request(t.url)
      .get(`/V1/${catid}`)
      .timeout({ response: LOCK_TIMEOUT_MS + RENDER_ALLOWANCE_MS });
    expect(res.status).toBe(200);
    // Read from Redis, not fetched again: the entry is well-formed, and what it holds is cut to the bounds.
    expect(t.upstream.api.control.stats().byPath[`GET /list/${catid}/1.html?pagesize=20`]).toBeUndefined();
    // Booleans and a size, so that a failure does not print a page of megabytes.
    const shows = (id: number) => res.text.includes(`/detail/${catid}/${id}"`);
    expect([shows(first.id + CMS_LIST_MAX - 1), shows(first.id + CMS_LIST_MAX)]).toEqual([true, false]);
    expect(res.text.includes('长'.repeat(CMS_SUMMARY_MAX + 1))).toBe(false);
    expect(Buffer.byteLength(res.text)).toBeLessThan(1024 * 1024);
  });

  it.each(Object.entries(WRONG_SHAPES))(
    'the menu entry every page reads holding %s (Redis and L1): pages answer with the menu fetched again',
    async (_name, value) => {
      const key = cacheKey({ prefix: t.cachePrefix, buildId: t.portal.assets.buildId }, 'data', '_', 'menu');
      const entry = nextArticle();
      await plantValue(key, value);
      // The portal's L1 copy of the menu goes first: the planted one is what it reads next.
      await dropL1Copies(testRedisUrl(), t.cachePrefix);
      t.upstream.api.control.reset();
      const res = await articlePage(entry);
      expect(res.text).toContain(menuName);
      expect(t.upstream.api.control.stats().byPath['GET /api/common/get_menu_list?']).toBe(1);
      const stored = await eventually(
        async () => decodeEntry((await redis.getBuffer(key))!),
        (held) => held !== null && STORED.categories.safeParse(JSON.parse(String(held.value))).success,
      );
      expect(STORED.categories.parse(JSON.parse(String(stored!.value))).length).toBeGreaterThan(0);
    },
  );

  it.each(Object.entries(FOREIGN))('a stale page whose lock key holds %s is still refreshed in the background', async (_name, plant) => {
    const entry = nextArticle();
    const pageKey = pageKeyOf(t, MAIN_SITE.id, `/detail/${entry.catid}/${entry.id}`);
    await articlePage(entry);
    const stored = await storedEntry(pageKey);
    await plant(redis, lockKey(pageKey));
    // Stale, within grace: served as it is while one refresh runs.
    await ageOne(pageKey, stored.ttl + 1);
    // The portal's L1 copy goes on the announcement, a publish round trip later.
    const stale = await eventually(
      () => articlePage(entry),
      (res) => res.headers['x-cache'] === 'STALE',
    );
    expect(stale.headers['x-cache']).toBe('STALE');
    const refreshed = await eventually(
      async () => decodeEntry((await redis.getBuffer(pageKey))!),
      (held) => held !== null && held.storedAt > stored.storedAt,
    );
    expect(refreshed?.storedAt).toBeGreaterThan(stored.storedAt);
    // Released once the refresh is stored, a moment after.
    expect(
      await eventually(
        () => redis.exists(lockKey(pageKey)),
        (exists) => exists === 0,
      ),
    ).toBe(0);
  });

  /** Moves one entry `seconds` into the past (its Redis expiry kept), and has the portal drop its L1 copy. */
  async function ageOne(key: string, seconds: number): Promise<void> {
    const held = decodeEntry((await redis.getBuffer(key))!)!;
    held.storedAt -= seconds * 1000;
    await redis.set(key, encodeEntry(held), 'KEEPTTL');
    await announce(redis, t.cachePrefix, { kind: 'evict', keys: [key] });
  }
});

describeWithRedis()('a lock kept alive for ever', () => {
  const suite = suiteRedis();

  it('is waited for at most the lock\u2019s maxWaitMs; then the caller loads without it', async () => {
    const timeoutMs = 400;
    const maxWaitMs = 1500;
    const lock = new RedisLock(suite.client, timeoutMs, 25, undefined, maxWaitMs);
    const cache = new Cache(new RedisStore({ client: suite.client }), {}, lock);
    const key = `${suite.prefix}:b:data:_:menu`;
    // Someone renews a well-formed lock (a holder whose load never ends): it looks alive for as long as the test runs.
    const renew = () => suite.client.set(lockKey(key), randomBytes(12).toString('base64url'), 'PX', timeoutMs);
    await renew();
    const renewing = setInterval(() => void renew(), timeoutMs / 4);
    try {
      let loads = 0;
      const started = Date.now();
      const served = await withDeadline(
        cache.getOrLoad(key, { ttl: 60, grace: 0, staleIfError: 0 }, async () => {
          loads += 1;
          return { value: 'loaded', cacheable: true, tags: [] };
        }),
        maxWaitMs + RENDER_ALLOWANCE_MS,
      );
      expect(served).toEqual(expect.objectContaining({ value: 'loaded', state: 'MISS' }));
      expect(loads).toBe(1);
      // It did wait for what looked like a live holder, and gave up at the limit rather than at once.
      expect(Date.now() - started).toBeGreaterThanOrEqual(maxWaitMs);
    } finally {
      clearInterval(renewing);
    }
  });
});

describeWithRedis()('locks kept alive for ever on every key of a page', () => {
  const suite = suiteRedis();
  /** Keeps a well-formed lock on each key alive (holders whose loads never end) until the returned stop is called. */
  function renewForEver(keys: readonly string[], timeoutMs: number): () => void {
    const renew = () => Promise.all(keys.map((key) => suite.client.set(lockKey(key), randomBytes(12).toString('base64url'), 'PX', timeoutMs)));
    void renew();
    const renewing = setInterval(() => void renew(), timeoutMs / 4);
    return () => clearInterval(renewing);
  }

  it('keys loaded one after another for one render wait the lock’s maxWaitMs once in all, not once each', async () => {
    const timeoutMs = 300;
    const maxWaitMs = 1200;
    const lock = new RedisLock(suite.client, timeoutMs, 25, undefined, maxWaitMs);
    const checks = countHolderChecks(lock);
    const cache = new Cache(new RedisStore({ client: suite.client }), {}, lock);
    const keys = ['menu', 'site', 'category', 'list'].map((name) => `${suite.prefix}:b:data:_:${name}`);
    await Promise.all(keys.map((key) => suite.client.set(lockKey(key), 'x', 'PX', timeoutMs)));
    const stop = renewForEver(keys, timeoutMs);
    try {
      const renderStarted = Date.now();
      // A render's calls that depend on each other: each asked for once the one before is answered.
      for (const key of keys) {
        const served = await cache.getOrLoad(key, { ttl: 60, grace: 0, staleIfError: 0 }, async () => ({ value: key, cacheable: true, tags: [] }), undefined, {
          waitFrom: renderStarted,
        });
        expect(served).toEqual(expect.objectContaining({ value: key, state: 'MISS' }));
      }
      // One wait, not four in a row: the first key polled its holder until the render's maxWaitMs was up; the
      // others, asked after that, gave up at their first poll without asking whether the holder still lives.
      expect(keys.map((key) => (checks.get(key) ?? 0) > 0)).toEqual([true, false, false, false]);
    } finally {
      stop();
    }
  });

  it('a page whose every data key is held that way answers within one maxWaitMs and a render', async () => {
    // maxWaitMs is CACHE_LOCK_TIMEOUT_MS + 2 × UPSTREAM_TIMEOUT_MS (server/cache/create-cache.ts): 300 + 2 × 2000 ms.
    const maxWaitMs = 300 + 2 * 2000;
    const t = await startTestPortal({
      redisUrl: testRedisUrl(),
      cachePrefix: suite.prefix,
      // No L1: every call of the render reads Redis and meets the locks.
      env: { CACHE_LOCK_TIMEOUT_MS: '300', UPSTREAM_TIMEOUT_MS: '2000', L1_CACHE_MAX_MB: '0' },
    });
    try {
      // The data keys a home render reads, learnt from one render, then emptied.
      expect((await request(t.url).get('/')).status).toBe(200);
      const dataKeys = await eventually(
        async () => (await suite.client.keys(`${suite.prefix}:*:data:*`)).filter((key) => !key.includes(':lock:')),
        (keys) => keys.length >= 5,
      );
      await suite.client.del(...dataKeys, ...(await suite.client.keys(`${suite.prefix}:*:page:*`)));
      const stop = renewForEver(dataKeys, 300);
      // In the order they happen: each check of a lock's holder, and each call the portal makes to the CMS.
      const events: string[] = [];
      const holderChecks = jest.spyOn(RedisLock.prototype, 'isHeld').mockImplementation(function (this: RedisLock, key: string) {
        events.push('holder check');
        return isHeld.call(this, key);
      });
      const onCall = () => events.push('CMS call');
      t.upstream.server.on('request', onCall);
      try {
        const page = await request(t.url)
          .get('/')
          .timeout({ response: 4 * maxWaitMs });
        expect(page.status).toBe(200);
        // The render's calls come in a few rounds, and each round waited up to maxWaitMs before (3 rounds: over
        // 12 s). Now the first round's waits end together at the render's maxWaitMs and it loads from the CMS;
        // later rounds give up at their first poll: no holder is checked once the first CMS call has gone.
        const firstCall = events.indexOf('CMS call');
        expect(events.includes('holder check') && firstCall > 0).toBe(true);
        expect(events.slice(firstCall).filter((event) => event === 'holder check')).toEqual([]);
      } finally {
        t.upstream.server.off('request', onCall);
        holderChecks.mockRestore();
        stop();
      }
    } finally {
      await t.close();
    }
  });
});

/** The lock's own check, called through by the spies below. */
const isHeld = RedisLock.prototype.isHeld;

/** Counts, by key, the checks of whether the lock's holder lives: one per poll of a wait that goes on. */
function countHolderChecks(lock: RedisLock): Map<string, number> {
  const checks = new Map<string, number>();
  const check = lock.isHeld.bind(lock);
  lock.isHeld = (key: string) => {
    checks.set(key, (checks.get(key) ?? 0) + 1);
    return check(key);
  };
  return checks;
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not answered within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
