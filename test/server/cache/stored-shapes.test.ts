/**
 * What every content call stores has the shape its reads are checked against (server/upstream/entity-schemas.ts):
 * otherwise every read of a good entry would be a miss (server/cache/cache.ts checkedJsonCodec reads a value of
 * another shape as one), silently. Every page kind is visited on Redis; every data entry stored is parsed against
 * its call's shape, and none was read as unreadable.
 */
import Redis from 'ioredis';
import request from 'supertest';
import type { z } from 'zod';
import { decodeEntry } from '../../../server/cache/entry-codec';
import { STORED } from '../../../server/upstream/entity-schemas';
import { pagesOfEveryKind } from '../../support/page-kinds';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { deleteKeys } from './redis-helpers';

/** A data key's call, by its first segment (the call modules' `key`), and the shape it stores. */
const SHAPE_BY_CALL: Record<string, z.ZodType<unknown, unknown>> = {
  list: STORED.articlePage,
  show: STORED.article,
  article_by_id: STORED.article,
  headline_news: STORED.articlePage,
  search: STORED.articlePage,
  news_search: STORED.newsSearch,
  ad_top: STORED.adGroups,
  ad_slots: STORED.homeAdSlots,
  site_info: STORED.siteInfo,
  grey_mode: STORED.greyMode,
  boutique: STORED.boutiquePage,
  video: STORED.video,
  video_album: STORED.videoAlbum,
  shike_categories: STORED.shikeCategories,
  shike_items: STORED.shikeCategoryVideos,
  live: STORED.live,
  live_list: STORED.livePage,
  live_playback: STORED.playbackPage,
  newspapers: STORED.newspaperPage,
  menu: STORED.categories,
  category_index: STORED.categories,
  parent_category: STORED.categories,
  theme_list: STORED.topicList,
  theme: STORED.topicDetail,
  special: STORED.specialReport,
  specials: STORED.specialReports,
  column_authors: STORED.columnAuthors,
  column_author: STORED.columnAuthorInfo,
};

describeWithRedis()('the shapes content calls store', () => {
  let t: TestPortal;
  let redis: Redis;
  beforeAll(async () => {
    t = await startTestPortal({ redisUrl: testRedisUrl() });
    redis = new Redis(testRedisUrl());
  });
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), t.cachePrefix);
    redis.disconnect();
    await t.close();
  });

  it('every data entry a visit of every page kind stores parses against its call’s shape, and none was read as a miss for its shape', async () => {
    for (const path of await pagesOfEveryKind(t.url)) {
      const res = await request(t.url).get(path);
      expect([200, 301, 302]).toContain(res.status);
    }
    const dataPrefix = `${t.cachePrefix}:${t.portal.assets.buildId}:data:_:`;
    const keys = await redis.keys(`${dataPrefix}*`);
    const calls = new Set<string>();
    const misfits: string[] = [];
    for (const key of keys) {
      const call = key.slice(dataPrefix.length).split(':')[0]!;
      const shape = SHAPE_BY_CALL[call];
      if (!shape) {
        misfits.push(`${key}: no call's key`);
        continue;
      }
      calls.add(call);
      const entry = decodeEntry((await redis.getBuffer(key))!);
      const parsed = entry && shape.safeParse(JSON.parse(String(entry.value)));
      if (!parsed?.success) misfits.push(`${key}: ${parsed?.error.message ?? 'no entry'}`);
    }
    expect(misfits).toEqual([]);
    // Most calls were seen (the rest are a signed-in reader's or a search's by tag or author).
    expect(calls.size).toBeGreaterThanOrEqual(18);
    expect(t.logs.filter((line) => String(line.msg).startsWith('cached entry of another shape'))).toEqual([]);
  });
});
