/**
 * Every page built so far, rendered on the main site and on a regional site with data from the reference
 * content API, each checked for its own main content.
 */
import request from 'supertest';
import { PAGE_DATA_ENDPOINT } from '../../../shared/app-state';
import { ABOUT_ID, CONTRIBUTE_ID, HOME_CATID } from '../../../shared/constants';
import { escapeHtml } from '../../../server/platform/html';
import type { HomeData } from '../../../shared/pages/home/route';
import { PORTAL_INFO } from '../../../shared/portal-info';
import { MAIN_SITE, REGIONAL_SITES, homeCatidOf, resolveSite } from '../../../shared/sites';
import type { RawAdSlot, RawArticleListItem, RawColumnAuthorList, RawTopicDetail, RawTopicList } from '../../../server/upstream/wire';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { articleList, homeCategories, upstreamData } from '../../support/upstream-data';

const REGIONAL = REGIONAL_SITES[0]!;

/** Each card of the page's card list, by the article it links to. */
function cardsByLink(html: string): Map<string, string> {
  const list = /<ul class="article-cards">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
  const cards = [...list.matchAll(/<li class="article-card[^"]*">[\s\S]*?<\/li>/g)].map((match) => match[0]);
  return new Map(cards.map((card) => [/href="([^"]+)"/.exec(card)?.[1] ?? '', card]));
}

/** A thumbnail is a picture card; no thumbnail is a text card with the summary and the time and no picture box at all. */
function expectCards(html: string, items: readonly RawArticleListItem[]): void {
  const cards = cardsByLink(html);
  expect(cards.size).toBe(items.length);
  for (const item of items) {
    const card = cards.get(`/detail/${item.catid}/${item.id}`)!;
    expect(card).toBeDefined();
    expect(card).toContain('<time');
    if (item.thumb) {
      expect(card).toContain(`src="${escapeHtml(item.thumb)}"`);
      continue;
    }
    expect(card).toMatch(/^<li class="article-card article-card--text">/);
    expect(card).not.toMatch(/<img|placeholder/);
    expect(card).toContain(escapeHtml(item.list_title || item.title));
    if (item.description) expect(card).toContain(`<p class="article-card__summary">${escapeHtml(item.description)}</p>`);
  }
}

/** Whether the page draws the CMS picture `src`: at its own address, or through the resizer (docs/images.md). */
function drawn(html: string, src: string): boolean {
  return html.includes(`"${escapeHtml(src)}"`) || html.includes(`/${Buffer.from(src).toString('base64url')}"`);
}

describe.each([
  ['main site', MAIN_SITE.domain],
  ['regional site', REGIONAL.domain],
])('pages on the %s', (_label, host) => {
  const homeCatid = homeCatidOf(resolveSite(host));
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());

  const get = (path: string) => request(t.url).get(path).set('Host', host);

  it('V1 lists a category with paging links, V2 as cards', async () => {
    const [category] = await homeCategories(t.upstream.url, homeCatid);
    const list = await articleList(t.upstream.url, category!.catid, 1, 20);
    const v1 = await get(`/V1/${category!.catid}`);
    expect(v1.status).toBe(200);
    expect(v1.text).toContain(`<h1 id="category-title" class="page-title">${escapeHtml(category!.catname)}</h1>`);
    const first = list.lists[0]!;
    expect(v1.text).toContain(`href="/detail/${first.catid}/${first.id}"`);
    if (list.total > 20) expect(v1.text).toContain(`href="/V1/${category!.catid}?page=2"`);
    // A menu prefix the menu does not give this category is a 301 to the page's one path (docs/security.md).
    const prefixed = await get(`/xinwen/guonei/V2/${category!.catid}`).redirects(0);
    expect([prefixed.status, prefixed.headers.location]).toEqual([301, `/V2/${category!.catid}`]);
    const v2 = await get(`/V2/${category!.catid}`);
    expect(v2.status).toBe(200);
    expect(v2.text).toContain('class="article-cards"');
  });

  it('V2 and topicDetail show an article without a thumbnail as a text card: title, summary, time, no picture box', async () => {
    const categories = await homeCategories(t.upstream.url, homeCatid);
    const lists = await Promise.all(categories.map((category) => articleList(t.upstream.url, category.catid, 1, 20)));
    const v2 = lists.find((list) => list.lists.some((item) => item.thumb === '') && list.lists.some((item) => item.thumb !== ''));
    expect(v2).toBeDefined();
    expectCards((await get(`/V2/${v2!.lists[0]!.catid}`)).text, v2!.lists);
    const topics = await upstreamData<RawTopicList>(t.upstream.url, '/theme/list/1?officeId=1&pageSize=12');
    const details = await Promise.all(topics.list.map((topic) => upstreamData<RawTopicDetail>(t.upstream.url, `/theme/get/${topic.id}`)));
    const topic = details.find((detail) => detail.articles.some((item) => item.thumb === ''));
    expect(topic).toBeDefined();
    expectCards((await get(`/topicDetail/${topic!.id}`)).text, topic!.articles);
  });

  it('V1 page 2 shows the second page, and a page past the end is a 404', async () => {
    // The main site's first home category has more than one page of articles.
    const [category] = await homeCategories(t.upstream.url, HOME_CATID);
    const second = await articleList(t.upstream.url, category!.catid, 2, 20);
    const res = await get(`/V1/${category!.catid}?page=2&utm_source=wx`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`href="/detail/${second.lists[0]!.catid}/${second.lists[0]!.id}"`);
    expect((await get(`/V1/${category!.catid}?page=999`)).status).toBe(404);
    expect((await get(`/V1/${category!.catid}?page=abc`)).status).toBe(404);
    expect((await get('/V1/99999999')).status).toBe(404);
  });

  it('topic lists topics and topicDetail shows one with its articles', async () => {
    const topics = await upstreamData<RawTopicList>(t.upstream.url, '/theme/list/1?officeId=1&pageSize=12');
    const res = await get('/topic/2750');
    expect(res.status).toBe(200);
    const topic = topics.list[0]!;
    expect(res.text).toContain(`href="/topicDetail/${topic.id}"`);
    const detail = await upstreamData<RawTopicDetail>(t.upstream.url, `/theme/get/${topic.id}`);
    const page = await get(`/topicDetail/${topic.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h1 id="topic-title" class="page-title">${escapeHtml(detail.title)}</h1>`);
    expect(page.text).toContain(`href="/detail/${detail.articles[0]!.catid}/${detail.articles[0]!.id}"`);
    const prefixed = await get(`/zhuanti/lianghui/topicDetail/${topic.id}`).redirects(0);
    expect([prefixed.status, prefixed.headers.location]).toEqual([301, `/topicDetail/${topic.id}`]);
  });

  it('topicDetail of a template-8 category shows that category as a topic', async () => {
    const res = await get('/zhuanti/xiangcun/topicDetail/2754');
    expect(res.status).toBe(200);
    expect(res.text).toContain('乡村振兴');
    expect((await get('/topicDetail/99999999')).status).toBe(404);
  });

  it('about shows the editors text and the contact section', async () => {
    const about = await articleList(t.upstream.url, ABOUT_ID, 1, 1);
    const res = await get('/about');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 id="info-title" class="page-title">关于我们</h1>');
    expect(res.text).toContain(escapeHtml(about.lists[0]!.description.slice(0, 10)));
    expect(res.text).toContain('id="contact"');
    expect(res.text).toContain(PORTAL_INFO.phone);
  });

  it.each([
    ['/contribute', '我要投稿', CONTRIBUTE_ID],
    ['/seekingReport', '需要报道', 0],
    ['/moveInto', '入驻', 0],
  ])('%s shows its page', async (path, title, catid) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<h1 id="info-title" class="page-title">${title}</h1>`);
    expect(res.text).toContain('class="article__body"');
    if (catid) {
      const list = await articleList(t.upstream.url, catid, 1, 1);
      expect(res.text).toContain(escapeHtml(list.lists[0]!.description.slice(0, 10)));
    }
  });

  it('license, siteMap, specialColumn and personalCenter show their content', async () => {
    const license = await get('/license');
    expect(license.text).toContain(PORTAL_INFO.newsLicence);
    const siteMap = await get('/siteMap');
    expect(siteMap.text).toContain('网站地图');
    expect(siteMap.text).toContain(`href="https://${REGIONAL.domain}/"`);
    const authors = await upstreamData<RawColumnAuthorList>(t.upstream.url, '/api/special_column_author/list?page=1&page_size=12');
    const columns = await get('/specialColumn');
    expect(columns.text).toContain(escapeHtml(authors.list[0]!.name));
    expect(columns.text).toContain('href="/specialColumn?page=2"');
    const personal = await get('/personalCenter');
    expect(personal.status).toBe(200);
    expect(personal.text).toContain('个人中心');
  });

  it('places every homepage ad slot the API returns (1–6 and 8–16), each ad with its picture and link', async () => {
    const slots = await upstreamData<RawAdSlot[]>(t.upstream.url, `/api/ad/list_by_column_id?catid=${homeCatid}`);
    expect(slots.map((slot) => slot.position)).toEqual(expect.arrayContaining([11, 12, 13, 14, 15, 16]));
    const home = (await get('/')).text;
    for (const slot of slots.filter((entry) => entry.list.length > 0)) {
      for (const ad of slot.list) {
        const media = ad.ad_type === 2 && ad.video ? home.includes(`src="${escapeHtml(ad.video)}"`) && drawn(home, ad.image) : drawn(home, ad.image);
        expect([slot.position, media]).toEqual([slot.position, true]);
        expect([slot.position, home.includes(`href="${escapeHtml(ad.jump_url)}"`)]).toEqual([slot.position, true]);
      }
    }
    // The main-column slots name their position: 5, 6 and every banner 8–16 between the rows of category blocks.
    const banners = [...home.matchAll(/data-ad-slot="(\d+)"/g)].map((match) => Number(match[1]));
    expect(banners).toEqual([6, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  });

  it('carries in the page state only ads the home page shows', async () => {
    const res = await request(t.url).get(`${PAGE_DATA_ENDPOINT}?path=/`).set('Host', host);
    expect(res.status).toBe(200);
    const state = (res.body as { page: { data: HomeData } }).page.data;
    const home = (await get('/')).text;
    const carried = state.adSlots.flatMap((slot) => slot.ads);
    expect(carried.length).toBeGreaterThan(15);
    expect(carried.filter((ad) => !drawn(home, ad.type === 2 && ad.video ? ad.video : ad.image))).toEqual([]);
    expect(state.adSlots.map((slot) => slot.position).filter((position) => position === 7 || position > 16)).toEqual([]);
  });
});
