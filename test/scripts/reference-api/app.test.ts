import sharp from 'sharp';
import request from 'supertest';
import { PREVIEW_HEADER, PREVIEW_HEADER_VALUE } from '../../../server/preview/contract';
import { BANNER_CATID, HOME_CATID, HOT_NEWS_ID, PROVINCE_PARENT_CATID } from '../../../shared/constants';
import type {
  RawAdGroups,
  RawAdSlot,
  RawArticleDetail,
  RawArticleList,
  RawCategory,
  RawColumnAuthorList,
  RawSiteInfo,
  RawTopicDetail,
  RawTopicList,
} from '../../../server/upstream/wire';
import type { Envelope } from '../../../shared/types/envelope';
import { createReferenceApi, type ReferenceApi } from '../../../scripts/reference-api/app';
import { ONE_SIZE_WIDTH } from '../../../scripts/reference-api/media';
import { BAD_PARAMS, bufferBody, getEnvelope, MEDIA_URL, PUBLIC, textBody } from './client';
import { NOW, SEED } from './fixtures';

let api: ReferenceApi;

beforeAll(() => {
  api = createReferenceApi({ seed: SEED, now: NOW, publicUrl: PUBLIC });
});

afterEach(() => {
  api.control.reset();
});

function get<T>(path: string): Promise<Envelope<T>> {
  return getEnvelope<T>(api, path);
}

async function post<T>(path: string, body: Record<string, unknown>, form = false): Promise<Envelope<T>> {
  const call = request(api.handler).post(path);
  const response = form ? await call.type('form').send(body) : await call.send(body);
  expect(response.status).toBe(200);
  return response.body as Envelope<T>;
}

function someArticle(catid = HOT_NEWS_ID): RawArticleDetail {
  const id = api.dataset.listByCatid.get(catid)?.[0];
  const article = id === undefined ? undefined : api.dataset.articleById.get(id);
  if (!article) throw new Error('fixture article missing');
  return article;
}

describe('POST /mobile/index/category_index', () => {
  it('answers the direct children with their subtrees, for JSON and form bodies', async () => {
    const json = await post<{ children: RawCategory[] }>('/mobile/index/category_index', { catid: HOME_CATID });
    expect(json.code).toBe(0);
    expect(json.data.children.map((child) => child.catid)).toEqual(api.dataset.childrenOf.get(HOME_CATID));
    const form = await post<{ children: RawCategory[] }>('/mobile/index/category_index', { catid: String(PROVINCE_PARENT_CATID) }, true);
    const first = form.data.children[0];
    expect(first?.newfield).toContainEqual({ name: 'template', desc: '8' });
    expect(first?.children).toHaveLength(6);
  });

  it('answers an empty list for a leaf or an unknown catid', async () => {
    expect(await post('/mobile/index/category_index', { catid: HOT_NEWS_ID })).toEqual({ code: 0, msg: 'success', data: { children: [] } });
    expect(await post('/mobile/index/category_index', { catid: 987654 })).toEqual({ code: 0, msg: 'success', data: { children: [] } });
  });

  it('rejects a missing or non-numeric catid', async () => {
    expect(await post('/mobile/index/category_index', {})).toEqual(BAD_PARAMS);
    expect(await post('/mobile/index/category_index', { catid: 'abc' })).toEqual(BAD_PARAMS);
  });
});

describe('GET /list/:catid/:page.html', () => {
  it('pages newest first with the real total and default page size 20', async () => {
    const all = api.dataset.listByCatid.get(HOT_NEWS_ID) ?? [];
    const body = await get<RawArticleList>(`/list/${HOT_NEWS_ID}/1.html`);
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({ total: all.length, page: 1, pagesize: 20 });
    expect(body.data.lists.map((item) => item.id)).toEqual(all.slice(0, 20));
    const dates = body.data.lists.map((item) => item.adddate!);
    expect(dates).toEqual([...dates].sort((left, right) => right - left));
    const second = await get<RawArticleList>(`/list/${HOT_NEWS_ID}/2.html?pagesize=5`);
    expect(second.data.lists.map((item) => item.id)).toEqual(all.slice(5, 10));
  });

  it('returns list items only, with absolute thumbs', async () => {
    const body = await get<RawArticleList>(`/list/${BANNER_CATID}/1.html?pagesize=1`);
    const item = body.data.lists[0];
    expect(Object.keys(item ?? {}).sort()).toEqual(['adddate', 'catid', 'description', 'id', 'list_title', 'source', 'thumb', 'title']);
    expect(item?.thumb).toMatch(MEDIA_URL);
  });

  it('lists a parent category with its descendants, and carries list_title when editors set one', async () => {
    const body = await get<RawArticleList>(`/list/${HOME_CATID}/1.html?pagesize=50`);
    expect(body.data.total).toBe(api.dataset.listByCatid.get(HOME_CATID)?.length);
    expect(new Set(body.data.lists.map((item) => item.catid)).size).toBeGreaterThan(1);
    expect(body.data.lists.some((item) => item.list_title !== '')).toBe(true);
    expect(body.data.lists.some((item) => item.list_title === '')).toBe(true);
  });

  it('answers an empty page past the end, with the real total', async () => {
    const total = api.dataset.listByCatid.get(HOT_NEWS_ID)?.length;
    const body = await get<RawArticleList>(`/list/${HOT_NEWS_ID}/99.html?pagesize=10`);
    expect(body).toMatchObject({ code: 0, data: { lists: [], total, page: 99, pagesize: 10 } });
  });

  it('caps the page size at 50 and rejects bad pages and ids', async () => {
    expect((await get<RawArticleList>(`/list/${HOME_CATID}/1.html?pagesize=50`)).data.lists).toHaveLength(50);
    expect(await get(`/list/${HOME_CATID}/1.html?pagesize=51`)).toEqual(BAD_PARAMS);
    expect(await get(`/list/${HOME_CATID}/1.html?pagesize=0`)).toEqual(BAD_PARAMS);
    expect(await get(`/list/${HOME_CATID}/0.html`)).toEqual(BAD_PARAMS);
    expect(await get(`/list/${HOME_CATID}/x.html`)).toEqual(BAD_PARAMS);
    expect(await get('/list/abc/1.html')).toEqual(BAD_PARAMS);
  });

  it('answers 40004 for an unknown category', async () => {
    expect(await get('/list/999999/1.html')).toEqual({ code: 40004, msg: '栏目不存在', data: null });
  });
});

describe('GET /show/:catid-:id.html', () => {
  it('answers the full article with absolute media URLs', async () => {
    const article = someArticle();
    const body = await get<RawArticleDetail>(`/show/${article.catid}-${article.id}.html`);
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({ id: article.id, catid: article.catid, title: article.title, catname: article.catname });
    expect(body.data.content).toContain(`src="${PUBLIC}/media/img/`);
    expect(body.data.content).not.toContain('src="/media/');
    expect(Array.isArray(body.data.tags)).toBe(true);
  });

  it('answers 40004 for an unknown id or an id of another category', async () => {
    const article = someArticle();
    const notFound = { code: 40004, msg: '文章不存在', data: null };
    expect(await get(`/show/${article.catid}-1.html`)).toEqual(notFound);
    expect(await get(`/show/${BANNER_CATID}-${article.id}.html`)).toEqual(notFound);
    expect(await get(`/show/${article.catid}-abc.html`)).toEqual(BAD_PARAMS);
  });
});

describe('topics', () => {
  it('pages topics with the default size 10 and filters by office', async () => {
    const all = await get<RawTopicList>('/theme/list/1');
    expect(all.data.total).toBe(api.dataset.topics.length);
    expect(all.data.list).toHaveLength(10);
    expect(all.data.list[0]?.cover_image).toMatch(MEDIA_URL);
    const office1 = await get<RawTopicList>('/theme/list/1?officeId=1&pageSize=50');
    expect(office1.data.total).toBeLessThan(all.data.total);
    expect(office1.data.list).toHaveLength(office1.data.total);
    expect((await get<RawTopicList>('/theme/list/99?officeId=1')).data).toEqual({ list: [], total: office1.data.total });
    expect(await get('/theme/list/0')).toEqual(BAD_PARAMS);
  });

  it('answers a topic with its articles, or 40004', async () => {
    const topic = api.dataset.topics[0];
    const body = await get<RawTopicDetail>(`/theme/get/${topic?.id}`);
    expect(body.data.articles.map((article) => article.id)).toEqual(topic?.articleIds);
    expect(JSON.parse(body.data.extend)).toHaveProperty('switch_value_android');
    expect(await get('/theme/get/5')).toEqual({ code: 40004, msg: '专题不存在', data: null });
  });
});

describe('menu, ads, authors, site', () => {
  it('answers the menu', async () => {
    const body = await get<RawCategory[]>('/api/common/get_menu_list');
    expect(body.data).toEqual(api.dataset.menu);
  });

  it('answers homepage ad slots for home catids only', async () => {
    const main = await get<RawAdSlot[]>(`/api/ad/list_by_column_id?catid=${HOME_CATID}`);
    expect(main.data.map((slot) => slot.position)).not.toContain(7);
    expect(main.data).toHaveLength(15);
    expect(main.data[0]?.list[0]?.image).toMatch(MEDIA_URL);
    expect((await get<RawAdSlot[]>('/api/ad/list_by_column_id?catid=3258')).data).toHaveLength(15);
    expect((await get<RawAdSlot[]>(`/api/ad/list_by_column_id?catid=${HOT_NEWS_ID}`)).data).toEqual([]);
    expect(await get('/api/ad/list_by_column_id?catid=x')).toEqual(BAD_PARAMS);
  });

  it('answers ad groups for any catid, with absolute video URLs', async () => {
    const body = await get<RawAdGroups>('/api/ad/top?catid=123');
    expect(Object.keys(body.data).sort()).toEqual(['detailTop', 'hotNewsBot', 'hotNewsTop', 'hotTopicBot', 'specialColBot']);
    const slots = (await get<RawAdSlot[]>(`/api/ad/list_by_column_id?catid=${HOME_CATID}`)).data;
    const videos = [...Object.values(body.data).flat(), ...slots.flatMap((slot) => slot.list)].filter((ad) => ad.ad_type === 2);
    expect(videos.length).toBeGreaterThan(0);
    for (const ad of videos) expect(ad.video).toBe(`${PUBLIC}/media/video/${ad.id}.mp4`);
  });

  it('pages column authors with the total count', async () => {
    const body = await get<RawColumnAuthorList>('/api/special_column_author/list?page=2&page_size=4');
    expect(body.data.count).toBe(api.dataset.columnAuthors.length);
    expect(body.data.list.map((author) => author.id)).toEqual(api.dataset.columnAuthors.slice(4, 8).map((author) => author.id));
    expect(body.data.list[0]?.avatar).toMatch(MEDIA_URL);
    expect(await get('/api/special_column_author/list?page=1&page_size=51')).toEqual(BAD_PARAMS);
  });

  it('answers site info with the server time, or 40004', async () => {
    const body = await get<RawSiteInfo>('/api/common/get_site_info?site_id=0');
    expect(body.code).toBe(0);
    expect(body.time).toBeGreaterThanOrEqual(NOW);
    expect(body.data.seo.seo_title).toContain('青年新闻网');
    expect((await get('/api/common/get_site_info?site_id=99')).code).toBe(40004);
    expect(await get('/api/common/get_site_info')).toEqual(BAD_PARAMS);
  });

  it('answers the domain of a province catid', async () => {
    expect((await get<{ domain: string }>('/api/common/get_domain_by_catId?catid=3258')).data).toEqual({ domain: 'bj.qnnews.cn' });
    expect((await get<{ domain: string }>(`/api/common/get_domain_by_catId?catid=${HOME_CATID}`)).data).toEqual({ domain: 'www.qnnews.cn' });
    expect((await get('/api/common/get_domain_by_catId?catid=999999')).code).toBe(40004);
  });

  it('answers grey mode, which the control plane can change', async () => {
    expect((await get('/api/common/grey_mode')).data).toBe('0');
    api.control.setGreyMode('2');
    expect((await get('/api/common/grey_mode')).data).toBe('2');
  });
});

describe('plumbing', () => {
  it('answers /healthz and a JSON 404 for unknown paths', async () => {
    const health = await request(api.handler).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.text).toBe('ok');
    const missing = await request(api.handler).get('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, msg: 'Not Found', data: null });
    expect((await request(api.handler).get('/mobile/index/category_index')).status).toBe(404);
  });

  it('serves deterministic SVG images with a long cache lifetime', async () => {
    const response = await request(api.handler).get('/media/img/a30001-600x400.svg').buffer(true).parse(textBody);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['cache-control']).toContain('max-age=31536000');
    expect(response.body).toMatch(/^<svg [^>]*width="600" height="400"/);
    expect((await request(api.handler).get('/media/img/a30001-5x400.svg')).status).toBe(404);
    expect((await request(api.handler).get('/media/img/BAD-600x400.svg')).status).toBe(404);
  });

  it('serves a picture at the size its path names, or with REFERENCE_IMAGES=one-size at one large size of that aspect', async () => {
    const sizeOf = async (handler: ReferenceApi['handler'], path: string) => {
      const response = await request(handler).get(path).buffer(true).parse(bufferBody);
      expect(response.headers['content-type']).toBe('image/jpeg');
      const { width, height } = await sharp(response.body as Buffer).metadata();
      return [width, height];
    };
    expect(await sizeOf(api.handler, '/media/img/a30001-320x180.jpg')).toEqual([320, 180]);
    const oneSize = createReferenceApi({ seed: SEED, now: NOW, publicUrl: PUBLIC, images: 'one-size' });
    expect(await sizeOf(oneSize.handler, '/media/img/a30001-320x180.jpg')).toEqual([ONE_SIZE_WIDTH, 900]);
    expect(await sizeOf(oneSize.handler, '/media/img/a30001-160x90.jpg')).toEqual([ONE_SIZE_WIDTH, 900]);
    const previous = process.env.REFERENCE_IMAGES;
    try {
      process.env.REFERENCE_IMAGES = 'one-size';
      expect(await sizeOf(createReferenceApi({ seed: SEED, now: NOW, publicUrl: PUBLIC }).handler, '/media/img/a30001-480x270.jpg')).toEqual([
        ONE_SIZE_WIDTH,
        900,
      ]);
      process.env.REFERENCE_IMAGES = 'one';
      expect(() => createReferenceApi({ seed: SEED, now: NOW, publicUrl: PUBLIC })).toThrow(/REFERENCE_IMAGES="one": must be "one-size"/);
    } finally {
      if (previous === undefined) delete process.env.REFERENCE_IMAGES;
      else process.env.REFERENCE_IMAGES = previous;
    }
  });

  it('serves a real MP4 for video ads, with range support', async () => {
    const videoId = [...api.dataset.videoAdIds][0];
    const full = await request(api.handler).get(`/media/video/${videoId}.mp4`).buffer(true).parse(bufferBody);
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('video/mp4');
    const bytes = full.body as Buffer;
    expect(bytes.subarray(4, 8).toString('ascii')).toBe('ftyp');
    expect(bytes.includes(Buffer.from('avcC'))).toBe(true);
    const part = await request(api.handler).get(`/media/video/${videoId}.mp4`).set('Range', 'bytes=0-99').buffer(true).parse(bufferBody);
    expect(part.status).toBe(206);
    expect((part.body as Buffer).length).toBe(100);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${bytes.length}`);
    expect((await request(api.handler).get('/media/video/1.mp4')).status).toBe(404);
  });
});

describe('control', () => {
  it('overrides an article in lists and detail, keeping hostile text intact in JSON', async () => {
    const article = someArticle();
    const hostile = '</script><script>alert(1)</script>';
    expect(api.control.overrideArticle(article.id, { title: hostile, list_title: '' })).toBe(true);
    expect(api.control.overrideArticle(1, { title: 'x' })).toBe(false);
    const detail = await get<RawArticleDetail>(`/show/${article.catid}-${article.id}.html`);
    expect(detail.data.title).toBe(hostile);
    const list = await get<RawArticleList>(`/list/${article.catid}/1.html?pagesize=1`);
    expect(list.data.lists[0]).toMatchObject({ id: article.id, title: hostile, list_title: '' });
    api.control.reset();
    expect((await get<RawArticleDetail>(`/show/${article.catid}-${article.id}.html`)).data.title).toBe(article.title);
  });

  it('overrides over HTTP and validates the patch', async () => {
    const article = someArticle();
    const ok = await request(api.handler).post(`/__control/article/${article.id}`).send({ thumb: '', views: 1 });
    expect(ok.status).toBe(200);
    expect((await get<RawArticleDetail>(`/show/${article.catid}-${article.id}.html`)).data).toMatchObject({ thumb: '', views: 1 });
    expect((await request(api.handler).post(`/__control/article/${article.id}`).send({ nope: 1 })).status).toBe(400);
    expect((await request(api.handler).post('/__control/article/1').send({ title: 'x' })).status).toBe(404);
  });

  it('serves drafts over HTTP only to calls asking for them, until published (docs/preview.md)', async () => {
    const article = someArticle();
    const detail = `/show/${article.catid}-${article.id}.html`;
    const asDraft = async (path: string) =>
      (await request(api.handler).get(path).set(PREVIEW_HEADER, PREVIEW_HEADER_VALUE)).body as { code: number; data: RawArticleDetail | null };
    expect((await request(api.handler).post(`/__control/draft/${article.id}`).send({ title: '草稿标题' })).status).toBe(200);
    expect((await get<RawArticleDetail>(detail)).data.title).toBe(article.title);
    expect((await asDraft(detail)).data?.title).toBe('草稿标题');
    const created = await request(api.handler).post('/__control/drafts').send({ catid: article.catid, title: '新文章草稿' });
    expect(created.status).toBe(200);
    const id = (created.body as { id: number }).id;
    expect(api.dataset.articleById.has(id)).toBe(false);
    const fresh = `/show/${article.catid}-${id}.html`;
    expect((await get<RawArticleDetail | null>(fresh)).code).not.toBe(0);
    expect((await asDraft(fresh)).data).toMatchObject({ id, catid: article.catid, title: '新文章草稿' });
    // Publishing: what the draft said is what everyone gets; the draft is gone.
    for (const published of [article.id, id]) expect((await request(api.handler).post(`/__control/publish/${published}`)).status).toBe(200);
    expect((await get<RawArticleDetail>(detail)).data.title).toBe('草稿标题');
    expect((await get<RawArticleDetail>(fresh)).data.title).toBe('新文章草稿');
    expect((await request(api.handler).post(`/__control/publish/${article.id}`)).status).toBe(404);
    expect((await request(api.handler).post('/__control/draft/1').send({ title: 'x' })).status).toBe(404);
    expect((await request(api.handler).post('/__control/drafts').send({ title: 'no category' })).status).toBe(400);
    expect((await request(api.handler).post('/__control/drafts').send({ catid: 1, title: 'x' })).status).toBe(404);
  });

  it('counts API calls by method, path and sorted query, but not media, health or control', async () => {
    await request(api.handler).get(`/list/${HOT_NEWS_ID}/1.html?pagesize=5&b=2&a=1`);
    await request(api.handler).get(`/list/${HOT_NEWS_ID}/1.html?a=1&pagesize=5&b=2`);
    await request(api.handler).get('/api/common/get_menu_list');
    await request(api.handler).post('/mobile/index/category_index').send({ catid: HOME_CATID });
    await request(api.handler).get('/media/img/a30001-600x400.svg');
    await request(api.handler).get('/healthz');
    expect(api.control.stats()).toEqual({
      total: 4,
      byPath: {
        [`GET /list/${HOT_NEWS_ID}/1.html?a=1&b=2&pagesize=5`]: 2,
        'GET /api/common/get_menu_list?': 1,
        'POST /mobile/index/category_index?': 1,
      },
    });
    const overHttp = await request(api.handler).get('/__control/stats');
    expect(overHttp.body).toEqual(api.control.stats());
    await request(api.handler).post('/__control/reset');
    expect(api.control.stats()).toEqual({ total: 0, byPath: {} });
  });

  it('injects HTTP 500, truncated JSON and business codes on matching paths only', async () => {
    api.control.setFailures([
      { path: '/list/', mode: 'http500' },
      { path: '/api/common/get_menu_list', mode: 'badjson' },
      { path: '/theme/', mode: 'code', code: 10001 },
    ]);
    const failed = await request(api.handler).get(`/list/${HOT_NEWS_ID}/1.html`);
    expect(failed.status).toBe(500);
    const truncated = await request(api.handler).get('/api/common/get_menu_list').buffer(true).parse(textBody);
    expect(truncated.status).toBe(200);
    expect(truncated.headers['content-type']).toMatch(/^application\/json/);
    expect(() => JSON.parse(truncated.body as string)).toThrow();
    expect((truncated.body as string).startsWith('{"code":0')).toBe(true);
    expect(await get('/theme/list/1')).toEqual({ code: 10001, msg: '系统繁忙，请稍后再试', data: null });
    expect((await get('/api/common/grey_mode')).code).toBe(0);
    api.control.reset();
    expect((await request(api.handler).get(`/list/${HOT_NEWS_ID}/1.html`)).status).toBe(200);
  });

  it('takes failure and grey-mode rules over HTTP, rejecting malformed ones', async () => {
    const set = await request(api.handler)
      .post('/__control/failures')
      .send([{ path: '/api/ad/', mode: 'code', code: 777 }]);
    expect(set.status).toBe(200);
    expect((await get('/api/ad/top?catid=1')).code).toBe(777);
    expect(
      (
        await request(api.handler)
          .post('/__control/failures')
          .send([{ path: '/x', mode: 'explode' }])
      ).status,
    ).toBe(400);
    expect(
      (
        await request(api.handler)
          .post('/__control/failures')
          .send([{ path: '/x', mode: 'code', code: 0 }])
      ).status,
    ).toBe(400);
    expect(
      (
        await request(api.handler)
          .post('/__control/latency')
          .send({ rules: [{ path: 'list', ms: 5 }] })
      ).status,
    ).toBe(400);
    expect((await request(api.handler).post('/__control/grey-mode').send({ mode: '1' })).status).toBe(200);
    expect((await get('/api/common/grey_mode')).data).toBe('1');
  });

  it('rewrites media URLs after setPublicUrl', async () => {
    api.control.setPublicUrl('http://127.0.0.1:9999/');
    const body = await get<RawArticleList>(`/list/${BANNER_CATID}/1.html?pagesize=1`);
    expect(body.data.lists[0]?.thumb.startsWith('http://127.0.0.1:9999/media/img/')).toBe(true);
    api.control.setPublicUrl(PUBLIC);
  });
});
