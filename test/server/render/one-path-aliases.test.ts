/**
 * One path per page (docs/security.md), for the spellings the edge cannot judge alone: a first page asked for with
 * `?page=1` is the page without it (one cache entry, one canonical link), the paths of a video or a live the site
 * never links to are a 301 to the one it does (never stored), and home answered at `/home` names `/` as its
 * canonical address. Against a real portal on the reference API, with the cache's keys read after each answer.
 */
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { encodeKeyword } from '../../../shared/search-keyword';
import { MAIN_DOMAIN } from '../../../shared/sites';
import type { RawLive, RawPagedList, RawShikeCategoryItems } from '../../../server/upstream/wire';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { article, articleList, homeCategories, upstreamData } from '../../support/upstream-data';

const ORIGIN = `https://${MAIN_DOMAIN}`;

describe('one path per page: first pages, media aliases and home', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(() => t.close());

  const get = (path: string) => request(t.url).get(path).set('Host', MAIN_DOMAIN).redirects(0);
  const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1];
  const ogUrlOf = (html: string) => /<meta property="og:url" content="([^"]*)">/.exec(html)?.[1];
  const pageKeys = async () => (await t.portal.store.keysMatching(`${t.cachePrefix}:*`)).filter((key) => key.includes(':page:'));

  /** Every paged page kind, asked for with `?page=1` first (and with it twice, and beside an unread parameter). */
  async function pagedPaths(): Promise<string[]> {
    const [category] = await homeCategories(t.upstream.url, HOME_CATID);
    const entry = (await articleList(t.upstream.url, category!.catid, 1, 20)).lists[0]!;
    const tag = (await article(t.upstream.url, entry.catid, entry.id)).tags[0]!;
    return [
      `/V1/${category!.catid}`,
      `/tagDetail/${tag.id}`,
      `/search/${encodeKeyword('新闻')}/1`,
      '/hd',
      '/poster',
      '/specialColumn',
      '/headlineNews',
      '/shike/2839',
      '/readNewspapers/2761',
    ];
  }

  it('a first page asked for with ?page=1 is the page without it: one cache entry, one canonical link', async () => {
    for (const path of await pagedPaths()) {
      const plain = await get(path);
      expect([path, plain.status]).toEqual([path, 200]);
      expect(canonicalOf(plain.text)).toBe(`${ORIGIN}${path}`);
      for (const variant of [`${path}?page=1`, `${path}?page=1&page=1`, `${path}?page=1&utm_source=x`]) {
        const answer = await get(variant);
        expect([variant, answer.status, canonicalOf(answer.text), ogUrlOf(answer.text)]).toEqual([variant, 200, `${ORIGIN}${path}`, `${ORIGIN}${path}`]);
      }
      // The second page is still a page of its own where there is one.
      const second = await get(`${path}?page=2`);
      if (second.status === 200) expect(canonicalOf(second.text)).toBe(`${ORIGIN}${path}?page=2`);
    }
    expect((await pageKeys()).filter((key) => key.includes('page=1'))).toEqual([]);
  });

  it('a video or a live at a path the site never links to is a 301 to the one it does, and never stored', async () => {
    const video = (await upstreamData<RawShikeCategoryItems>(t.upstream.url, '/api/video_album/shike_video_category_item?id=2839&page=1&page_size=1')).list[0]!;
    const live = (await upstreamData<RawPagedList<RawLive>>(t.upstream.url, '/api/live/list?show_type=1&page=1&page_size=1')).list[0]!;
    const aliases: Array<[string, string]> = [
      [`/video/${video.id}`, `/video/${video.catid}/${video.id}`],
      [`/video/${video.id}?x=1`, `/video/${video.catid}/${video.id}`],
      [`/videoLive/${live.catid}/${live.id}`, `/liveStreamDetail/${live.id}`],
      [`/videoLive/${live.id}`, `/liveStreamDetail/${live.id}`],
    ];
    for (const [alias, one] of aliases) {
      const answer = await get(alias);
      expect([alias, answer.status, answer.headers.location]).toEqual([alias, 301, one]);
      const target = await get(one);
      expect([one, target.status, canonicalOf(target.text)]).toEqual([one, 200, `${ORIGIN}${one}`]);
    }
    // Not found where it was asked for: not a redirect to wherever it is.
    for (const wrong of [`/videoLive/${live.catid + 1}/${live.id}`, `/video/99999999`, `/videoLive/99999999`])
      expect([wrong, (await get(wrong)).status]).toEqual([wrong, 404]);
    expect((await pageKeys()).filter((key) => /:(\/video\/\d+|\/videoLive\/.*)$/.test(key))).toEqual([]);
  });

  it('home at /home names / as its canonical address', async () => {
    for (const path of ['/', '/home']) {
      const answer = await get(path);
      expect([path, answer.status, canonicalOf(answer.text), ogUrlOf(answer.text)]).toEqual([path, 200, `${ORIGIN}/`, `${ORIGIN}/`]);
    }
  });
});
