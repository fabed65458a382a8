/**
 * Search, article feeds, news tracking, galleries, videos, lives and the e-paper, rendered on the main site and
 * on a regional site with data from the reference content API.
 */
import request from 'supertest';
import { escapeHtml } from '../../../server/platform/html';
import { href } from '../../../shared/routes';
import { encodeKeyword } from '../../../shared/search-keyword';
import { MAIN_SITE, REGIONAL_SITES, resolveSite } from '../../../shared/sites';
import type {
  RawBoutiqueList,
  RawColumnAuthorList,
  RawHeadlineNews,
  RawLive,
  RawNewspaperSearch,
  RawPagedList,
  RawShikeCategoryItems,
  RawSpecialReport,
} from '../../../server/upstream/wire';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { article, firstHomeArticle, upstreamData } from '../../support/upstream-data';
import { POSTER_WIDTH } from '../../../shared/image-sizes';

describe.each([
  ['main site', MAIN_SITE.domain],
  ['regional site', REGIONAL_SITES[5]!.domain],
])('media and discovery pages on the %s', (_label, host) => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());
  const get = (path: string) => request(t.url).get(path).set('Host', host);

  /** Every media page's head: the site's title rule, its kind in the keywords, Open Graph video.other. */
  const expectMediaHead = (html: string, title: string, kind: string) => {
    expect(html).toContain(`<title>${escapeHtml(`${title} - ${resolveSite(host).seo_title}`)}</title>`);
    expect(html).toContain(`<meta name="keywords" content="${escapeHtml(`${title},${kind}`)}">`);
    expect(html).toContain('<meta property="og:type" content="video.other">');
  };

  it('searches by a base64 keyword, highlights it as text, and shows an empty state', async () => {
    const raw = await firstHomeArticle(t.upstream.url, 2727);
    const keyword = raw.title.slice(0, 4);
    const res = await get(`/search/${encodeKeyword(keyword)}/2`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<mark>${escapeHtml(keyword)}</mark>`);
    // The header's search panel shows the type of the page: 全部 (2) here.
    const radios = res.text.match(/<input type="radio" name="type"[^>]*>/g) ?? [];
    expect(radios.filter((tag) => tag.includes('checked=""')).map((tag) => /value="(\d)"/.exec(tag)?.[1])).toEqual(['2']);
    expect(res.text).toContain(`href="/detail/${raw.catid}/${raw.id}"`);
    const none = await get(`/search/${encodeKeyword('不存在的词语xyz')}/1`);
    expect(none.text).toContain('没有找到与');
    // A word that is no keyword (0xFF bytes) has no page (docs/security.md, "One path per page").
    expect((await get('/search/____')).status).toBe(404);
    const hostile = await get(`/search/${encodeKeyword('<script>alert(1)</script>')}/2`);
    expect(hostile.text).not.toContain('<script>alert(1)</script>');
    expect((await get('/search')).text).toContain('请输入关键词进行搜索');
  });

  it('shows headline news, a tag and a column author with their articles', async () => {
    const headlines = await upstreamData<RawHeadlineNews>(t.upstream.url, '/api/rmt/get_headline_news?page=1&page_size=20');
    const headline = await get('/headlineNews');
    expect(headline.text).toContain(`href="/detail/${headlines.list[0]!.catid}/${headlines.list[0]!.id}"`);
    const raw = await firstHomeArticle(t.upstream.url, 2727);
    const tag = raw.tags[0] ?? (await article(t.upstream.url, raw.catid, raw.id)).tags[0];
    if (!tag) throw new Error('the generated article has no tag');
    // An old link with the tag's title goes to the tag page's one path, which has none.
    const titled = await get(`/tagDetail/${tag.id}/${encodeURIComponent(tag.name)}`);
    expect([titled.status, titled.headers.location]).toEqual([301, href.tag(tag.id)]);
    const tagPage = await get(href.tag(tag.id));
    expect(tagPage.status).toBe(200);
    expect(tagPage.text).toContain(`#${escapeHtml(tag.name)}`);
    expect((await get('/tagDetail/99999999')).status).toBe(404);
    const authors = await upstreamData<RawColumnAuthorList>(t.upstream.url, '/api/special_column_author/list?page=1&page_size=1');
    const author = authors.list[0]!;
    const columnist = await get(`/specialColumnDetail/${author.id}`);
    expect(columnist.status).toBe(200);
    expect(columnist.text).toContain(escapeHtml(author.name));
    expect((await get('/specialColumnDetail/99999999')).status).toBe(404);
  });

  it('shows a news-tracking timeline and the picture and poster galleries', async () => {
    const reports = await upstreamData<RawSpecialReport[]>(t.upstream.url, '/api/special/list_by_catid?catid=0');
    const report = reports[0]!;
    const track = await get(`/newsTrack/${report.id}`);
    expect(track.status).toBe(200);
    expect(track.text).toContain(escapeHtml(report.title));
    expect(track.text).toContain(escapeHtml(report.articles[0]!.stage));
    const pictures = await upstreamData<RawBoutiqueList>(t.upstream.url, '/api/boutique/list?type=1&page=1&page_size=12');
    expect((await get('/hd')).text).toContain(escapeHtml(pictures.list[0]!.title));
    const posters = await upstreamData<RawBoutiqueList>(t.upstream.url, '/api/boutique/list?type=2&page=1&page_size=12');
    expect((await get('/poster')).text).toContain(escapeHtml(posters.list[0]!.title));
  });

  it('plays a video from shike, a video album, and describes the video for search engines', async () => {
    const items = await upstreamData<RawShikeCategoryItems>(t.upstream.url, '/api/video_album/shike_video_category_item?id=2839&page=1&page_size=12');
    const shike = await get('/shike/2839');
    expect(shike.status).toBe(200);
    const video = items.list[0]!;
    expect(shike.text).toContain(`href="/video/${video.catid}/${video.id}"`);
    const page = await get(`/video/${video.catid}/${video.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<video');
    // The player's poster at the player's width, through the resizer (docs/images.md).
    expect(page.text).toContain(`poster="/img/${POSTER_WIDTH}/${Buffer.from(video.cover).toString('base64url')}"`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(page.text)![1]!) as Record<string, unknown>;
    expect(jsonLd).toMatchObject({ '@type': 'VideoObject', name: video.title, contentUrl: video.hls_url, duration: `PT${video.duration}S` });
    expectMediaHead(page.text, video.title, '视频');
    // The path without the category is the same page: sent to the one the site links to (docs/security.md).
    const byId = await get(`/video/${video.id}`);
    expect([byId.status, byId.headers.location]).toEqual([301, `/video/${video.catid}/${video.id}`]);
    expect((await get(`/video/1/${video.id}`)).status).toBe(404);
    const album = await get('/videoAlbum/601');
    expect(album.status).toBe(200);
    expect(album.text).toContain('href="/videoAlbum/601?v=');
    const albumTitle = /<h1[^>]*>([^<]*)<\/h1>/.exec(album.text)?.[1];
    expect(albumTitle).toBeTruthy();
    expect(album.text).toContain(`<meta name="keywords" content="${albumTitle},视频专辑">`);
    expect(album.text).toContain('<meta property="og:type" content="video.other">');
  });

  it('shows a live on air with its player and an ended live with its recordings', async () => {
    const onAir = (await upstreamData<RawPagedList<RawLive>>(t.upstream.url, '/api/live/list?show_type=1&page=1&page_size=1')).list[0]!;
    const live = await get(`/liveStreamDetail/${onAir.id}`);
    expect(live.status).toBe(200);
    expect(live.text).toContain('直播中');
    expect(live.text).toContain('<video');
    expectMediaHead(live.text, onAir.title, '直播');
    const alias = await get(`/videoLive/${onAir.catid}/${onAir.id}`);
    expect([alias.status, alias.headers.location]).toEqual([301, `/liveStreamDetail/${onAir.id}`]);
    // Another category's address for the live is not a page.
    expect((await get(`/videoLive/${onAir.catid + 1}/${onAir.id}`)).status).toBe(404);
    const ended = (await upstreamData<RawPagedList<RawLive>>(t.upstream.url, '/api/live/list?show_type=3&page=1&page_size=1')).list[0]!;
    expect((await get(`/liveStreamDetail/${ended.id}`)).text).toContain('已结束');
    expect((await get('/liveStreamDetail/99999999')).status).toBe(404);
  });

  it('shows the e-paper: an issue page with its article areas, older issues, and the shelf', async () => {
    const issues = await upstreamData<RawNewspaperSearch>(t.upstream.url, '/api/rmt/read_newspapers_search?q=&catid=2761&page=1&page_size=14');
    const latest = issues.list[0]!;
    const front = latest.pages[0]!;
    const res = await get('/readNewspapers/2761');
    expect(res.status).toBe(200);
    // The issue's date is one unit in the title (.date: never broken over two lines; <time> carries instants only).
    const dated = (date: string | null) => `<span class="date">${String(date)}</span>`;
    expect(res.text).toContain(`${escapeHtml(latest.paper_name)} · ${dated(latest.issue_date)} · 第1版`);
    const areaArticle = await upstreamData<{ id: number; catid: number }>(t.upstream.url, `/api/article/detail?id=${front.areas[0]!.article_id}`);
    expect(res.text).toContain(`href="/detail/${areaArticle.catid}/${areaArticle.id}"`);
    expect((await get(`/detail/${areaArticle.catid}/${areaArticle.id}`)).status).toBe(200);
    const older = issues.list[1]!;
    const second = await get(`/readNewspapers_v2/2761?date=${older.issue_date}&page=2`);
    expect(second.status).toBe(200);
    expect(second.text).toContain(`${dated(older.issue_date)} · 第2版`);
    expect((await get('/readNewspapers/2761?date=1999-01-01')).status).toBe(404);
    expect((await get('/readNewspapers/2761?page=99')).status).toBe(404);
    for (const path of ['/electronic', '/newspaperBoard']) {
      const shelf = await get(path);
      expect(shelf.status).toBe(200);
      expect(shelf.text).toContain(`href="/readNewspapers/2761"`);
    }
  });
});
