/**
 * Every page built so far, rendered on the main site and on a regional site with data from the reference
 * content API, each checked for its own main content.
 */
import request from 'supertest';
import { ABOUT_ID, CONTRIBUTE_ID, HOME_CATID } from '../../../shared/constants';
import { escapeHtml } from '../../../shared/html';
import { PORTAL_INFO } from '../../../shared/portal-info';
import { MAIN_SITE, REGIONAL_SITES, homeCatidOf, resolveSite } from '../../../shared/sites';
import type { RawAdSlot, RawColumnAuthorList, RawTopicDetail, RawTopicList } from '../../../shared/types/upstream';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { articleList, homeCategories, upstreamData } from '../../support/upstream-data';


const REGIONAL = REGIONAL_SITES[0]!;

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
    const v2 = await get(`/xinwen/guonei/V2/${category!.catid}`);
    expect(v2.status).toBe(200);
    expect(v2.text).toContain('class="article-cards"');
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
    expect((await get(`/zhuanti/lianghui/topicDetail/${topic.id}`)).status).toBe(200);
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

  it('places the homepage ad slots 1–6 and 8–16 that the site has', async () => {
    const slots = await upstreamData<RawAdSlot[]>(t.upstream.url, `/api/ad/list_by_column_id?catid=${homeCatid}`);
    const home = await get('/');
    const placed = slots.filter((slot) => slot.list.length > 0 && home.text.includes(escapeHtml(slot.list[0]!.image)));
    // 1–6 have fixed places; 8, 9, … follow the rows of two category blocks (both sites have at least two rows).
    expect(placed.map((slot) => slot.position)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6, 8, 9]));
    expect(placed.every((slot) => slot.position !== 7)).toBe(true);
  });
});
