/**
 * Two portal instances on one real Redis, each with its in-process tier: pages are served from L1, and a
 * purge or a refresh announced by anyone evicts the L1 copy on every instance.
 */
import Redis from 'ioredis';
import request from 'supertest';
import { announce } from '../../../server/cache/coherence';
import { Invalidator } from '../../../server/cache/invalidation';
import { pageCodec } from '../../../server/cache/page-cache';
import { compressPage } from '../../../server/cache/stored-page';
import { RedisStore } from '../../../server/cache/redis-store';
import { HOME_CATID } from '../../../shared/constants';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { firstHomeArticle } from '../../support/upstream-data';
import { deleteKeys, eventually } from './redis-helpers';

/**
 * A page stored by one instance reaches Redis just after its response ends (the write is not awaited by the
 * reader), so before asking the other instance, wait until Redis holds it.
 */
async function storedInRedis(prefix: string, pagePath: string): Promise<void> {
  const client = new Redis(testRedisUrl());
  try {
    // A pattern also matches the key's lock ({prefix}:lock:…) while a load holds it; only the entry counts.
    const entries = async () => (await client.keys(`${prefix}:*:page:0:${pagePath}`)).filter((key) => !key.includes(':lock:'));
    const keys = await eventually(entries, (found) => found.length > 0, 5000);
    expect(keys).toHaveLength(1);
  } finally {
    client.disconnect();
  }
}

describeWithRedis()('two instances, L1 kept coherent by pub/sub', () => {
  let a: TestPortal;
  let b: TestPortal;
  beforeAll(async () => {
    a = await startTestPortal({ redisUrl: testRedisUrl() });
    b = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream, cachePrefix: a.cachePrefix });
    // Each instance subscribes on its own connection; wait until both hear announcements.
    for (const t of [a, b]) await eventually(async () => t.portal.store.isAvailable(), Boolean, 5000);
  });
  afterEach(() => a.upstream.api.control.reset());
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), a.cachePrefix);
    await b.close();
    await a.close();
  });

  it('serves a page from L1 without asking Redis once Redis has it', async () => {
    const path = '/home';
    await request(a.url).get(path);
    await storedInRedis(a.cachePrefix, path);
    expect((await request(b.url).get(path)).headers['x-cache']).toBe('HIT');
    // Delete behind the instances' backs (no announcement): L1 still answers.
    const client = new Redis(testRedisUrl());
    try {
      const keys = (await client.keys(`${a.cachePrefix}:*:page:0:/home`)).filter((key) => !key.includes(':lock:'));
      expect(keys).toHaveLength(1);
      await client.del(...keys);
      expect((await request(b.url).get(path)).headers['x-cache']).toBe('HIT');
      // Announced, the copy goes on every instance.
      await announce(client, a.cachePrefix, { kind: 'evict', keys });
      const after = await eventually(
        () => request(b.url).get(path),
        (res) => res.headers['x-cache'] === 'MISS',
        5000,
      );
      expect(after.headers['x-cache']).toBe('MISS');
    } finally {
      client.disconnect();
    }
  });

  it('drops L1 copies on every instance within a second of a tag purge', async () => {
    const raw = await firstHomeArticle(a.upstream.url, HOME_CATID);
    const path = `/detail/${raw.catid}/${raw.id}`;
    await request(a.url).get(path);
    await storedInRedis(a.cachePrefix, path);
    for (const t of [a, b]) expect((await request(t.url).get(path)).headers['x-cache']).toBe('HIT');
    a.upstream.api.control.overrideArticle(raw.id, { title: '两个实例都应看到' });

    const store = new RedisStore({ url: testRedisUrl() });
    try {
      await eventually(async () => store.isAvailable(), Boolean, 5000);
      const invalidator = new Invalidator(store, { prefix: a.cachePrefix, buildId: '*' }, (keys) =>
        announce(store.client, a.cachePrefix, { kind: 'evict', keys: [...keys] }),
      );
      await invalidator.purge({ by: 'tag', tag: `article:${raw.id}` });
      for (const t of [a, b]) {
        const res = await eventually(
          () => request(t.url).get(path),
          (r) => r.text.includes('两个实例都应看到'),
          5000,
        );
        expect(res.text).toContain('两个实例都应看到');
      }
    } finally {
      await store.close();
    }
  });

  it("evicts the other instance's copy when one instance stores a new version (a refresh)", async () => {
    const path = '/';
    await request(a.url).get(path);
    await storedInRedis(a.cachePrefix, path);
    const before = await request(b.url).get(path);
    expect(before.headers['x-cache']).toBe('HIT');
    const [key] = await a.portal.store.keysMatching(`${a.cachePrefix}:*:page:0:/`);
    const held = key ? await a.portal.store.get(key) : null;
    if (!key || !held) throw new Error('the home page was not stored');
    // What a background refresh on A does: store a new version of the entry through A's store.
    const page = pageCodec.decode(held.value);
    const html = page.identity.toString('utf8').replace('</body>', '<!-- refreshed on A --></body>');
    const refreshed = { ...(await compressPage({ html: Buffer.from(html, 'utf8'), scripts: page.scripts })), etag: 'refreshed-on-a' };
    await a.portal.store.set(key, { ...held, storedAt: Date.now(), value: pageCodec.encode(refreshed) });
    const fromB = await eventually(
      () => request(b.url).get(path),
      (res) => res.headers.etag === '"refreshed-on-a-gzip"',
      5000,
    );
    expect(fromB.headers.etag).toBe('"refreshed-on-a-gzip"');
    expect(fromB.text).toContain('<!-- refreshed on A -->');
  });
});
