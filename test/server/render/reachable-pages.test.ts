/**
 * Every kind of page has a way in a reader would find: home lists the lives on air or next (a live page the newest
 * of every state, ended ones too) and the news-tracking reports updated last, an article's tags open the tags' pages,
 * a column author's byline the author's page, 热门专题 each topic's page, a video names the albums it belongs to,
 * and the pages sitemap lists lives, reports and albums. And a default install's menu has no entry that answers a reader with an editor's warning.
 */
import request from 'supertest';
import type { RawLive, RawPagedList, RawShikeCategory, RawShikeCategoryItems, RawSpecialReport, RawTopicList } from '../../../server/upstream/wire';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { DEFAULT_THEME_OFFICE_ID, RECOMMENDED_TOPICS_SHOWN } from '../../../shared/constants';
import { OTHERS_PER_STATE } from '../../../server/pages/live/loader';
import { href } from '../../../shared/routes';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { taggedArticle, upstreamData } from '../../support/upstream-data';

/** The article's byline as served: '作者：' and the name, or a link to the name's page. */
function bylineOf(html: string): string {
  return /<span class="article__byline">(.*?)<\/span>/s.exec(html)?.[1] ?? '';
}

function jsonLdOf(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
}

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

  it('a column author’s article links its byline to the author’s page, which names the author; other bylines are text', async () => {
    const { dataset, control } = t.upstream.api;
    const column = dataset.articles.find((entry) => entry.columnist_id);
    const [other, zeroed] = dataset.articles.filter((entry) => !entry.columnist_id && entry.author !== '');
    if (!column?.columnist_id || !other || !zeroed) throw new Error('the reference dataset has no column author’s article beside others');
    const author = href.specialColumnDetail(column.columnist_id);
    for (const path of [href.detail(column.catid, column.id), href.detailReading(column.catid, column.id)]) {
      const page = await request(t.url).get(path);
      expect([path, bylineOf(page.text)]).toEqual([path, `作者：<a href="${author}" class="article__author">${column.author}</a>`]);
    }
    const news = jsonLdOf((await request(t.url).get(href.detail(column.catid, column.id))).text).find((item) => item['@type'] === 'NewsArticle');
    expect(news?.['author']).toEqual([{ '@type': 'Person', name: column.author, url: `https://www.qnnews.cn${author}` }]);
    const authorPage = await request(t.url).get(author);
    expect([authorPage.status, authorPage.text.includes(column.author)]).toEqual([200, true]);
    expect(bylineOf((await request(t.url).get(href.detail(other.catid, other.id))).text)).toBe(`作者：<!-- -->${other.author}`);
    // An id the CMS sends as 0 names no one: the name stays, without a link, and the page answers (an article
    // this portal has not read yet, so no cached copy hides the change).
    control.overrideArticle(zeroed.id, { columnist_id: 0 });
    try {
      const page = await request(t.url).get(href.detail(zeroed.catid, zeroed.id));
      expect([page.status, bylineOf(page.text)]).toEqual([200, `作者：<!-- -->${zeroed.author}`]);
    } finally {
      control.reset();
    }
  });

  it('热门专题 links each topic to its page: the CMS’s jump, as a path when the jump is this site’s own', async () => {
    const topics = await upstreamData<RawTopicList>(t.upstream.url, `/theme/list/1?officeId=${DEFAULT_THEME_OFFICE_ID}&pageSize=${RECOMMENDED_TOPICS_SHOWN}`);
    const home = await request(t.url).get('/');
    // The streamed block, not the skeleton (aria-busy) it replaces.
    const list = /<ul class="side-topics">(.*?)<\/ul>/s.exec(home.text)?.[1] ?? '';
    const shown = [...list.matchAll(/<a href="([^"]+)"[^>]*>.*?<span>([^<]*)<\/span>/gs)].map((match) => ({ href: match[1], title: match[2] }));
    const expected = topics.list.map((topic) => {
      const jump = (JSON.parse(topic.extend) as { switch_value_android: string }).switch_value_android;
      return { href: jump.replace(/^https:\/\/www\.qnnews\.cn\//, '/'), title: topic.title };
    });
    expect(shown).toEqual(expected);
    expect(shown.filter((topic) => topic.href?.startsWith('/topicDetail/')).length).toBeGreaterThan(0);
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
