/**
 * Every kind of page has a way in a reader would find: home lists the lives on air or next (a live page the newest
 * of every state, ended ones too) and the news-tracking reports updated last, an article's tags open the tags' pages, a video names the albums it belongs to, and the pages sitemap lists lives, reports and
 * albums. And a default install's menu has no entry that answers a reader with an editor's warning.
 */
import request from 'supertest';
import type { RawLive, RawPagedList, RawShikeCategory, RawShikeCategoryItems, RawSpecialReport } from '../../../shared/types/upstream';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { OTHERS_PER_STATE } from '../../../shared/pages/live/loader';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { taggedArticle, upstreamData } from '../../support/upstream-data';

function hrefs(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((match) => match[1] ?? '');
}

describe('ways into lives, news tracks and albums', () => {
  let t: TestPortal;

  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());

  it('home lists what is on air, then what starts next, and the latest news-tracking reports; each opens', async () => {
    const [onAir, upcoming] = await Promise.all(
      [1, 2].map((status) => upstreamData<RawPagedList<RawLive>>(t.upstream.url, `/api/live/list?show_type=${status}&page=1&page_size=4`)),
    );
    const expectedLives = [...(onAir?.list ?? []), ...(upcoming?.list ?? [])].slice(0, 4).map((live) => `/liveStreamDetail/${live.id}`);
    expect(expectedLives.length).toBeGreaterThan(0);
    const home = await request(t.url).get('/');
    expect(home.status).toBe(200);
    const lives = hrefs(home.text, /href="(\/liveStreamDetail\/\d+)"/g);
    expect(lives).toEqual(expectedLives);
    expect(home.text).toContain('直播中');
    const reports = await upstreamData<RawSpecialReport[]>(t.upstream.url, '/api/special/list_by_catid?catid=0');
    const tracks = hrefs(home.text, /href="(\/newsTrack\/\d+)"/g);
    expect(tracks).toHaveLength(Math.min(5, reports.length));
    for (const path of [...lives, ...tracks]) expect([path, (await request(t.url).get(path)).status]).toEqual([path, 200]);
  });

  it('lives of every state are two clicks from home: home’s 直播, then a live’s 更多直播 (the newest of each state)', async () => {
    const states = await Promise.all(
      [1, 2, 3].map((status) => upstreamData<RawPagedList<RawLive>>(t.upstream.url, `/api/live/list?show_type=${status}&page=1&page_size=50`)),
    );
    const every = states.flatMap((state) => state.list.slice(0, OTHERS_PER_STATE).map((live) => `/liveStreamDetail/${live.id}`));
    expect(states.map((state) => state.list.length > 0)).toEqual([true, true, true]);
    const reached = new Set<string>();
    const fromHome = hrefs((await request(t.url).get('/')).text, /href="(\/liveStreamDetail\/\d+)"/g);
    for (const path of fromHome) {
      reached.add(path);
      const live = await request(t.url).get(path);
      expect([path, live.status]).toEqual([path, 200]);
      for (const other of hrefs(live.text, /href="(\/liveStreamDetail\/\d+)"/g)) reached.add(other);
    }
    expect(every.filter((path) => !reached.has(path))).toEqual([]);
  });

  it('an article’s tags each link to the tag’s page, which names the tag', async () => {
    const raw = await taggedArticle(t.upstream.url);
    const page = await request(t.url).get(`/detail/${raw.catid}/${raw.id}`);
    const list = /<ul class="article__tags"[^>]*>(.*?)<\/ul>/s.exec(page.text)?.[1] ?? '';
    const links = [...list.matchAll(/<a[^>]*href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].map((match) => ({ href: match[1], name: match[2] }));
    expect(links).toEqual(raw.tags.map((tag) => ({ href: `/tagDetail/${tag.id}`, name: tag.name })));
    for (const link of links) {
      const tagPage = await request(t.url).get(link.href!);
      expect([link.href, tagPage.status, tagPage.text.includes(link.name!)]).toEqual([link.href, 200, true]);
    }
  });

  it('a video in an album links to the album, playing that video', async () => {
    const categories = await upstreamData<RawShikeCategory[]>(t.upstream.url, '/api/video_album/shike_video_category');
    const items = await upstreamData<RawShikeCategoryItems>(
      t.upstream.url,
      `/api/video_album/shike_video_category_item?id=${categories[0]?.id}&page=1&page_size=50`,
    );
    const inAlbum = items.list.find((video) => video.albums.length > 0);
    if (!inAlbum) throw new Error('no video of the first 视刻 category is in an album');
    const page = await request(t.url).get(`/video/${inAlbum.catid}/${inAlbum.id}`);
    expect(page.text).toContain('收录于专辑');
    const links = hrefs(page.text, /href="(\/videoAlbum\/\d+\?v=\d+)"/g);
    expect(links).toEqual(inAlbum.albums.map((album) => `/videoAlbum/${album.id}?v=${inAlbum.id}`));
    const album = await request(t.url).get(links[0] ?? '');
    expect(album.status).toBe(200);
    expect(album.text).toContain(inAlbum.albums[0]?.title ?? '');
  });

  it('the pages sitemap lists every live, every report and the albums of the 视刻 videos', async () => {
    const sitemap = await request(t.url).get('/sitemaps/pages.xml');
    const locs = hrefs(sitemap.text, /<loc>https:\/\/www\.qnnews\.cn([^<]+)<\/loc>/g);
    const reports = await upstreamData<RawSpecialReport[]>(t.upstream.url, '/api/special/list_by_catid?catid=0');
    for (const report of reports) expect(locs).toContain(`/newsTrack/${report.id}`);
    for (const status of [1, 2, 3]) {
      const lives = await upstreamData<RawPagedList<RawLive>>(t.upstream.url, `/api/live/list?show_type=${status}&page=1&page_size=50`);
      for (const live of lives.list) expect(locs).toContain(`/liveStreamDetail/${live.id}`);
    }
    expect(locs.filter((loc) => loc.startsWith('/videoAlbum/')).length).toBeGreaterThan(0);
  });
});

describe('the default install', () => {
  let upstream: ReferenceServer;
  let t: TestPortal;

  beforeAll(async () => {
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    t = await startTestPortal({ upstream });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('has no menu entry that answers a reader with an editor’s warning', async () => {
    const home = await request(t.url).get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('class="menu');
    expect(home.text).not.toContain('menu__item--misconfigured');
  });
});
