/**
 * A purge by URL drops the upstream answers the page was rendered from (CacheEntry.reads, docs/publish-hook.md),
 * against two real portals on one Redis and the reference content API: a correction sent by URL, hard or soft,
 * is what both instances and `/_data/page` show next, never the old text stored again from a held answer; and on
 * every page kind, the answers a page read are gone from Redis once its URL is purged.
 */
import Redis from 'ioredis';
import request from 'supertest';
import { decodeEntry } from '../../../server/cache/entry-codec';
import { MAIN_SITE } from '../../../shared/sites';
import { pagesOfEveryKind } from '../../support/page-kinds';
import { pageKeyOf, startTestPortal, type TestPortal } from '../../support/portal';
import { callHook } from '../../support/publish-hook';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { homeListEntry } from '../../support/upstream-data';
import { deleteKeys, eventually } from './redis-helpers';

const SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';
const ORIGIN = `https://${MAIN_SITE.domain}`;

describeWithRedis()('a purge by URL and the answers behind the page', () => {
  let a: TestPortal;
  let b: TestPortal;
  let redis: Redis;
  const env = { PURGE_SECRET: SECRET };

  beforeAll(async () => {
    a = await startTestPortal({ redisUrl: testRedisUrl(), env, announceEveryMs: 500 });
    b = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream, cachePrefix: a.cachePrefix, env, announceEveryMs: 500 });
    redis = new Redis(testRedisUrl());
  });
  afterEach(() => a.upstream.api.control.reset());
  afterAll(async () => {
    redis.disconnect();
    await b.close();
    await a.close();
    await deleteKeys(testRedisUrl(), a.cachePrefix);
  });

  const page = (t: TestPortal, path: string) => request(t.url).get(path).set('host', MAIN_SITE.domain);
  const pageData = (t: TestPortal, path: string) => request(t.url).get('/_data/page').query({ path }).set('host', MAIN_SITE.domain);

  /** The page's entry as Redis holds it, once its store (just after the response) has landed. */
  async function storedEntry(path: string) {
    const key = pageKeyOf(a, MAIN_SITE.id, path);
    const raw = await eventually(
      () => redis.getBuffer(key),
      (value) => value !== null,
      10_000,
    );
    const entry = raw && decodeEntry(raw);
    if (!entry) throw new Error(`no readable entry at ${key}`);
    return entry;
  }

  /**
   * `path` stored by instance a (its page and answers in a's L1 and in Redis), and the answers alone in b's L1
   * (b built /_data/page from them, never the page): b can only drop them if the purge names them.
   */
  async function warm(path: string, headline: string) {
    expect((await page(a, path)).text).toContain(headline);
    const entry = await storedEntry(path);
    expect((await pageData(b, path)).text).toContain(headline);
    return entry;
  }

  it.each([
    ['hard', false],
    ['soft', true],
  ])('a correction sent by URL (%s) is what both instances and /_data/page show next', async (_label, soft) => {
    const entry = await homeListEntry(a.upstream.url, soft ? 1 : 0);
    const path = `/detail/${entry.catid}/${entry.id}`;
    const old = entry.title;
    const stored = await warm(path, old);
    expect(stored.reads?.some((key) => key.includes(String(entry.id)))).toBe(true);

    const corrected = `更正：${old}`;
    expect(a.upstream.api.control.overrideArticle(entry.id, { title: corrected })).toBe(true);
    const answer = await callHook(a.url, SECRET, { urls: [`${ORIGIN}${path}`], soft });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ complete: true, soft });
    // The page and at least the article's answer.
    expect(answer.body.entries).toBeGreaterThanOrEqual(2);

    for (const t of [a, b]) {
      // Soft: the first reader may still get the old page while one re-render runs; then only the correction.
      const shown = await eventually(
        () => page(t, path),
        (res) => res.status === 200 && res.text.includes(corrected),
        10_000,
      );
      expect(shown.text).toContain(corrected);
      expect((await pageData(t, path)).text).toContain(corrected);
    }
    // Stored again from what the CMS says now: every later copy, in Redis and in either L1, has the correction.
    await eventually(
      async () => (await storedEntry(path)).storedAt,
      (storedAt) => storedAt > stored.storedAt,
      10_000,
    );
    for (const t of [a, b]) {
      const res = await page(t, path);
      expect([res.headers['x-cache'], res.text.includes(corrected)]).toEqual([expect.stringMatching(/HIT|MISS/), true]);
    }
  });

  it('drops from Redis every answer a page of any kind was rendered from', async () => {
    const paths = await pagesOfEveryKind(a.url);
    expect(paths.length).toBeGreaterThan(15);
    const left: string[] = [];
    const readNothing: string[] = [];
    for (const path of paths) {
      const res = await page(a, path);
      if (res.status !== 200 || res.headers['x-cache'] === 'PASS') continue;
      const { reads = [] } = await storedEntry(path);
      // Every page reads at least its site's navigation and flags.
      if (reads.length === 0) readNothing.push(path);
      const held = reads.length > 0 ? await redis.exists(...reads) : 0;
      const answer = await callHook(a.url, SECRET, { urls: [`${ORIGIN}${path}`], soft: false });
      expect([path, answer.status]).toEqual([path, 200]);
      // The page and every answer it read that Redis still held (an answer kept briefly may have gone already).
      expect([path, answer.body.entries >= 1 + held]).toEqual([path, true]);
      for (const key of reads) if ((await redis.exists(key)) === 1) left.push(`${path}: ${key}`);
    }
    expect(readNothing).toEqual([]);
    expect(left).toEqual([]);
  }, 120_000);
});
