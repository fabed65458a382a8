import request from 'supertest';
import { ELECTRONIC_ID, HOT_NEWS_ID } from '../../../shared/constants';
import type {
  RawAdSlot,
  RawAppSkin,
  RawBoutiqueList,
  RawColumnAuthorInfo,
  RawHeadlineNews,
  RawNewspaperSearch,
  RawNewsSearchInit,
  RawParentCategory,
  RawSearchResult,
  RawSpecialReport,
  RawTopicList,
} from '../../../server/upstream/wire';
import { createReferenceApi, type ReferenceApi } from '../../../scripts/reference-api/app';
import type { Dataset } from '../../../scripts/reference-api/dataset';
import { BAD_PARAMS, getEnvelope, getRaw, localPath, MEDIA_URL, PUBLIC } from './client';
import { DAY, IMAGE_PATH, NOW, SEED } from './fixtures';

let api: ReferenceApi;

beforeAll(() => {
  api = createReferenceApi({ seed: SEED, now: NOW, publicUrl: PUBLIC });
});

function get<T>(path: string) {
  return getEnvelope<T>(api, path);
}

function q(text: string): string {
  return encodeURIComponent(text);
}

function isNewestFirst(dates: readonly number[]): boolean {
  return dates.every((date, index) => index === 0 || (dates[index - 1] ?? 0) >= date);
}

describe('GET /api/rmt/search_all', () => {
  it('finds an article by a word of its title, newest first, with paging fields', async () => {
    const article = api.dataset.articles.find((candidate) => candidate.catid === HOT_NEWS_ID);
    if (!article) throw new Error('fixture');
    const word = article.title.slice(0, 4);
    const body = await get<RawSearchResult>(`/api/rmt/search_all?q=${q(word)}&type=2&page=1&page_size=50`);
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({ q: word, type: 2, page: 1, page_size: 50 });
    expect(body.data.total).toBeGreaterThan(0);
    for (const item of body.data.list) expect(`${item.title}${item.list_title}${item.description}`).toContain(word);
    expect(isNewestFirst(body.data.list.map((item) => item.adddate!))).toBe(true);
    const exact = await get<RawSearchResult>(`/api/rmt/search_all?q=${q(article.title)}&type=2&page_size=50`);
    expect(exact.data.list.map((item) => item.id)).toContain(article.id);
  });

  it('type 1 keeps the last 30 days only; type 2 (the default) finds old articles too', async () => {
    const old = api.dataset.articles.find((article) => article.adddate! < NOW - 200 * DAY && article.list_title === '');
    if (!old) throw new Error('fixture');
    const all = await get<RawSearchResult>(`/api/rmt/search_all?q=${q(old.title)}&page_size=50`);
    expect(all.data.type).toBe(2);
    expect(all.data.list.map((item) => item.id)).toContain(old.id);
    const recent = await get<RawSearchResult>(`/api/rmt/search_all?q=${q(old.title)}&type=1&page_size=50`);
    expect(recent.data.list.map((item) => item.id)).not.toContain(old.id);
    const broad = await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年')}&type=1&page_size=50`);
    expect(broad.data.total).toBeGreaterThan(0);
    for (const item of broad.data.list) expect(item.adddate).toBeGreaterThanOrEqual(NOW - 30 * DAY);
  });

  it('pages like a real API: the pages continue each other, the last is partial, past the end is empty', async () => {
    const first = await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年')}&page_size=7`);
    const total = first.data.total;
    expect(total).toBeGreaterThan(14);
    const second = await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年')}&page=2&page_size=7`);
    const both = await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年')}&page=1&page_size=14`);
    expect([...first.data.list, ...second.data.list].map((item) => item.id)).toEqual(both.data.list.map((item) => item.id));
    const lastPage = Math.ceil(total / 7);
    const last = await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年')}&page=${lastPage}&page_size=7`);
    expect(last.data.list).toHaveLength(total - (lastPage - 1) * 7);
    const beyond = await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年')}&page=${lastPage + 1}&page_size=7`);
    expect(beyond.data).toMatchObject({ list: [], total });
  });

  it('requires every term of a multi-word query', async () => {
    const both = await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年  志愿')}&page_size=50`);
    for (const item of both.data.list) {
      const text = `${item.title}${item.list_title}${item.description}`;
      expect(text).toContain('青年');
      expect(text).toContain('志愿');
    }
  });

  it('answers an empty list for an empty, blank or unmatched Unicode query', async () => {
    const empty = { code: 0, msg: 'success' };
    for (const query of ['', '%20%20', q('😀🚀'), q('a+b/c=='), q('<script>')]) {
      const body = await get<RawSearchResult>(`/api/rmt/search_all?q=${query}`);
      expect(body).toMatchObject(empty);
      expect(body.data).toMatchObject({ list: [], total: 0 });
    }
    expect((await get<RawSearchResult>('/api/rmt/search_all')).data.list).toEqual([]);
  });

  it('rejects bad type, page and page_size', async () => {
    expect(await get(`/api/rmt/search_all?q=${q('青年')}&type=3`)).toEqual(BAD_PARAMS);
    expect(await get(`/api/rmt/search_all?q=${q('青年')}&type=x`)).toEqual(BAD_PARAMS);
    expect(await get(`/api/rmt/search_all?q=${q('青年')}&page=0`)).toEqual(BAD_PARAMS);
    expect(await get(`/api/rmt/search_all?q=${q('青年')}&page_size=51`)).toEqual(BAD_PARAMS);
    expect((await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年')}&page_size=50`)).data.list).toHaveLength(50);
  });
});

describe('GET /api/rmt/get_headline_news', () => {
  it('pages the headline articles with the total, default size 10', async () => {
    const ids = api.dataset.headlineIds;
    expect(ids.length).toBeGreaterThan(50);
    const body = await get<RawHeadlineNews>('/api/rmt/get_headline_news');
    expect(body.data).toMatchObject({ total: ids.length, page: 1, page_size: 10 });
    expect(body.data.list.map((item) => item.id)).toEqual(ids.slice(0, 10));
    expect(isNewestFirst(body.data.list.map((item) => item.adddate!))).toBe(true);
    const last = Math.ceil(ids.length / 20);
    expect((await get<RawHeadlineNews>(`/api/rmt/get_headline_news?page=${last}&page_size=20`)).data.list.map((item) => item.id)).toEqual(
      ids.slice((last - 1) * 20),
    );
    expect((await get<RawHeadlineNews>(`/api/rmt/get_headline_news?page=${last + 1}&page_size=20`)).data).toMatchObject({ list: [], total: ids.length });
    expect(await get('/api/rmt/get_headline_news?page=-1')).toEqual(BAD_PARAMS);
  });
});

describe('GET /api/rmt/news_search_init', () => {
  it('lists a tag’s articles (every tag has 10 or more) and names the tag', async () => {
    for (const [tagId, ids] of api.dataset.articlesByTag) expect([tagId, ids.length >= 10]).toEqual([tagId, true]);
    const tag = api.dataset.tags[0];
    if (!tag) throw new Error('fixture');
    const body = await get<RawNewsSearchInit>(`/api/rmt/news_search_init?tag_id=${tag.id}&page_size=50`);
    expect(body.data.tag).toEqual(tag);
    expect(body.data.total).toBe(api.dataset.articlesByTag.get(tag.id)?.length);
    for (const item of body.data.list) expect(api.dataset.articleById.get(item.id)?.tags.map((entry) => entry.id)).toContain(tag.id);
    expect(isNewestFirst(body.data.list.map((item) => item.adddate!))).toBe(true);
    expect(body.data).toMatchObject({ columnist: null, theme: null });
  });

  it('tags stories by their subject: a sports story never carries 高考, an education story never 马拉松', () => {
    const tagId = (name: string): number => api.dataset.tags.find((tag) => tag.name === name)?.id ?? -1;
    const catidsOf = (name: string) => (api.dataset.articlesByTag.get(tagId(name)) ?? []).map((id) => api.dataset.articleById.get(id)?.catid);
    expect(catidsOf('高考')).not.toContain(2734);
    expect(catidsOf('马拉松')).not.toContain(2731);
    expect(catidsOf('马拉松')).toContain(2734);
  });

  it('lists a column author’s articles, matching the author’s article count', async () => {
    const author = api.dataset.columnAuthors[0];
    if (!author) throw new Error('fixture');
    const body = await get<RawNewsSearchInit>(`/api/rmt/news_search_init?columnist_id=${author.id}&page_size=50`);
    expect(body.data.columnist?.name).toBe(author.name);
    expect(body.data.columnist?.avatar).toMatch(MEDIA_URL);
    const info = await get<RawColumnAuthorInfo>(`/api/special_column_author/info?id=${author.id}`);
    expect(body.data.total).toBe(info.data.article_count);
    expect(body.data.total).toBeGreaterThan(0);
    for (const item of body.data.list) expect(api.dataset.articleById.get(item.id)?.author).toBe(author.name);
  });

  it('lists a topic’s articles, and combines filters with a keyword', async () => {
    const topic = api.dataset.topics[0];
    if (!topic) throw new Error('fixture');
    const body = await get<RawNewsSearchInit>(`/api/rmt/news_search_init?themeid=${topic.id}&page_size=50`);
    expect(body.data.theme?.title).toBe(topic.title);
    expect(new Set(body.data.list.map((item) => item.id))).toEqual(new Set(topic.articleIds));
    const first = api.dataset.articleById.get(topic.articleIds[0] ?? 0);
    const narrowed = await get<RawNewsSearchInit>(`/api/rmt/news_search_init?themeid=${topic.id}&q=${q(first?.title ?? '')}`);
    expect(narrowed.data.list.map((item) => item.id)).toContain(first?.id);
    expect(narrowed.data.total).toBeLessThanOrEqual(body.data.total);
    const keyword = await get<RawNewsSearchInit>(`/api/rmt/news_search_init?q=${q('青年')}`);
    expect(keyword.data.total).toBe((await get<RawSearchResult>(`/api/rmt/search_all?q=${q('青年')}`)).data.total);
    expect((await get<RawNewsSearchInit>('/api/rmt/news_search_init')).data).toMatchObject({ list: [], total: 0 });
  });

  it('answers 40004 for unknown ids and 40000 for malformed ones', async () => {
    expect(await get('/api/rmt/news_search_init?tag_id=9999')).toEqual({ code: 40004, msg: '标签不存在', data: null });
    expect(await get('/api/rmt/news_search_init?columnist_id=9999')).toEqual({ code: 40004, msg: '专栏作者不存在', data: null });
    expect(await get('/api/rmt/news_search_init?themeid=9999')).toEqual({ code: 40004, msg: '专题不存在', data: null });
    expect(await get('/api/rmt/news_search_init?tag_id=abc')).toEqual(BAD_PARAMS);
    expect(await get('/api/rmt/news_search_init?tag_id=1&page_size=100')).toEqual(BAD_PARAMS);
  });
});

describe('GET /api/rmt/get_parent_category', () => {
  it('answers the chain root first, with children only for type=1', async () => {
    const plain = await get<RawParentCategory>('/api/rmt/get_parent_category?id=2711');
    expect(plain.data.list.map((node) => node.catid)).toEqual([2710, 2711]);
    expect(plain.data.list.every((node) => node.children.length === 0)).toBe(true);
    const full = await get<RawParentCategory>('/api/rmt/get_parent_category?id=2711&type=1');
    expect(full.data.list[0]?.children.map((node) => node.catid)).toEqual(api.dataset.childrenOf.get(2710));
    const regional = await get<RawParentCategory>('/api/rmt/get_parent_category?id=3258');
    expect(regional.data.list.map((node) => node.catid)).toEqual([3257, 3258]);
    expect(regional.data.list[1]?.newfield).toContainEqual({ name: 'template', desc: '8' });
  });

  it('answers 40004 for an unknown category and 40000 for bad params', async () => {
    expect(await get('/api/rmt/get_parent_category?id=999999')).toEqual({ code: 40004, msg: '栏目不存在', data: null });
    expect(await get('/api/rmt/get_parent_category')).toEqual(BAD_PARAMS);
    expect(await get('/api/rmt/get_parent_category?id=2711&type=5')).toEqual(BAD_PARAMS);
  });
});

describe('GET /api/special_column_author/info', () => {
  it('answers the author with bio, title, article count and subscribe_status 0', async () => {
    const author = api.dataset.columnAuthors[3];
    const body = await get<RawColumnAuthorInfo>(`/api/special_column_author/info?id=${author?.id}`);
    expect(body.data).toMatchObject({ id: author?.id, name: author?.name, description: author?.description, subscribe_status: 0 });
    expect(author?.description.startsWith(body.data.title)).toBe(true);
    expect(body.data.article_count).toBe(api.dataset.articlesByColumnist.get(author?.id ?? 0)?.length);
    expect(await get('/api/special_column_author/info?id=5')).toEqual({ code: 40004, msg: '专栏作者不存在', data: null });
    expect(await get('/api/special_column_author/info')).toEqual(BAD_PARAMS);
  });
});

describe('GET /api/special/list_by_catid', () => {
  it('answers the reports of a category and its descendants, each a timeline oldest first', async () => {
    const body = await get<RawSpecialReport[]>('/api/special/list_by_catid?catid=2750');
    expect(body.data.length).toBe(api.dataset.specials.length);
    const only = await get<RawSpecialReport[]>('/api/special/list_by_catid?catid=2753');
    expect(only.data.length).toBeGreaterThanOrEqual(5);
    for (const report of only.data) {
      expect(report.catid).toBe(2753);
      expect(report.cover).toMatch(MEDIA_URL);
      expect(report.articles.map((item) => item.id)).toEqual(report.article_ids);
      expect(report.articles.length).toBeGreaterThanOrEqual(5);
      const dates = report.articles.map((item) => item.adddate!);
      expect(dates).toEqual([...dates].sort((left, right) => left - right));
      expect(report.articles[0]?.stage).toBe('事件缘起');
      expect(['最新进展', '事件结果']).toContain(report.articles[report.articles.length - 1]?.stage);
      expect(report.adddate).toBe(dates[dates.length - 1]);
      for (const item of report.articles) expect(item.catid).toBe(2753);
    }
  });

  it('filters by report id (catid 0 = every category), and answers [] or 40004', async () => {
    const report = api.dataset.specials[2];
    const one = await get<RawSpecialReport[]>(`/api/special/list_by_catid?catid=0&id=${report?.id}`);
    expect(one.data.map((entry) => entry.id)).toEqual([report?.id]);
    expect((await get<RawSpecialReport[]>(`/api/special/list_by_catid?catid=${HOT_NEWS_ID}`)).data).toEqual([]);
    expect(await get('/api/special/list_by_catid?catid=0&id=1')).toEqual({ code: 40004, msg: '专题报道不存在', data: null });
    expect(await get('/api/special/list_by_catid?catid=999999')).toEqual({ code: 40004, msg: '栏目不存在', data: null });
    expect(await get('/api/special/list_by_catid')).toEqual(BAD_PARAMS);
  });
});

describe('GET /api/boutique/list', () => {
  it('pages picture stories and posters with their images', async () => {
    const body = await get<RawBoutiqueList>('/api/boutique/list?page=1&page_size=50');
    expect(body.data.total).toBe(api.dataset.boutique.length);
    const stories = body.data.list.filter((item) => item.type === 1);
    const posters = body.data.list.filter((item) => item.type === 2);
    expect(stories.length).toBeGreaterThanOrEqual(10);
    expect(posters.length).toBeGreaterThanOrEqual(10);
    for (const story of stories) {
      expect(story.images.length).toBeGreaterThanOrEqual(4);
      expect(story.title.startsWith('组图｜')).toBe(true);
      for (const image of story.images) expect(image.url).toMatch(MEDIA_URL);
    }
    for (const poster of posters) expect(poster.images[0]).toMatchObject({ width: 750, height: 1334 });
    const onlyPosters = await get<RawBoutiqueList>('/api/boutique/list?type=2&page_size=5&page=2');
    expect(onlyPosters.data.total).toBe(posters.length);
    expect(onlyPosters.data.list.every((item) => item.type === 2)).toBe(true);
    expect((await get<RawBoutiqueList>('/api/boutique/list?page=99')).data).toMatchObject({ list: [], total: body.data.total });
    expect(await get('/api/boutique/list?type=3')).toEqual(BAD_PARAMS);
  });
});

describe('category -4, app skin', () => {
  it('answers side-column ads and recommended topics for catid -4', async () => {
    const ads = await get<RawAdSlot[]>('/api/ad/list_by_column_id?catid=-4');
    expect(ads.data.map((slot) => slot.position)).toEqual([1, 2, 3, 4]);
    expect(ads.data[0]?.list[0]?.image).toMatch(MEDIA_URL);
    const topics = await get<RawTopicList>('/theme/list/1?catid=-4&pageSize=50');
    expect(topics.data.total).toBe(api.dataset.recommendedTopicIds.length);
    expect(topics.data.total).toBeGreaterThanOrEqual(4);
    expect(topics.data.list.map((topic) => topic.id)).toEqual(api.dataset.recommendedTopicIds);
    expect((await get<RawTopicList>('/theme/list/1?catid=-5')).data.total).toBe(api.dataset.topics.length);
  });

  it('answers the app skin', async () => {
    const body = await get<RawAppSkin>('/api/common/app_skin');
    expect(body.data).toMatchObject({ id: 1, enabled: 0 });
    expect(body.data.logo).toMatch(MEDIA_URL);
    expect(body.data.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('GET /api/rmt/read_newspapers_search', () => {
  it('answers a paper’s issues newest first, each with 4–8 pages of 1200×1700 images and article areas', async () => {
    const body = await get<RawNewspaperSearch>('/api/rmt/read_newspapers_search?catid=2761&page_size=50');
    expect(body.data.total).toBeGreaterThanOrEqual(20);
    const dates = body.data.list.map((issue) => issue.issue_date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const issue of body.data.list) {
      expect(issue).toMatchObject({ catid: 2761, paper_name: '中国青年报' });
      expect(issue.issue_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(issue.adddate).toBeLessThanOrEqual(NOW);
      expect(issue.pages.length).toBeGreaterThanOrEqual(4);
      expect(issue.pages.length).toBeLessThanOrEqual(8);
      issue.pages.forEach((page, index) => {
        expect(page.page_no).toBe(index + 1);
        expect(page.image).toMatch(/^http:\/\/media\.test:8080\/media\/img\/np\d+p\d+-1200x1700\.jpg$/);
        expect(page.areas.length).toBeGreaterThanOrEqual(2);
        for (const area of page.areas) {
          const article = api.dataset.articleById.get(area.article_id);
          expect(article?.title).toBe(area.title);
          expect(article?.adddate).toBeLessThanOrEqual(issue.adddate!);
          expect(area.y + area.height).toBeLessThanOrEqual(page.height);
        }
      });
    }
  });

  it('answers every paper for no catid or the 电子报 catid, none for another category, 40004 for an unknown one', async () => {
    const all = await get<RawNewspaperSearch>('/api/rmt/read_newspapers_search');
    expect(all.data.total).toBe(api.dataset.newspapers.length);
    expect(all.data.total).toBeGreaterThanOrEqual(30);
    expect(new Set(all.data.list.map((issue) => issue.catid)).size).toBeGreaterThanOrEqual(1);
    expect((await get<RawNewspaperSearch>(`/api/rmt/read_newspapers_search?catid=${ELECTRONIC_ID}`)).data.total).toBe(all.data.total);
    expect((await get<RawNewspaperSearch>(`/api/rmt/read_newspapers_search?catid=${HOT_NEWS_ID}`)).data).toMatchObject({ list: [], total: 0 });
    expect(await get('/api/rmt/read_newspapers_search?catid=999999')).toEqual({ code: 40004, msg: '栏目不存在', data: null });
    expect(await get('/api/rmt/read_newspapers_search?catid=x')).toEqual(BAD_PARAMS);
    expect(await get('/api/rmt/read_newspapers_search?page_size=60')).toEqual(BAD_PARAMS);
    expect((await get<RawNewspaperSearch>('/api/rmt/read_newspapers_search?page=99')).data).toMatchObject({ list: [], total: all.data.total });
  });

  it('searches by date and by article title', async () => {
    const issue = api.dataset.newspapers[3];
    if (!issue) throw new Error('fixture');
    const byDate = await get<RawNewspaperSearch>(`/api/rmt/read_newspapers_search?q=${issue.issue_date.replace(/-/g, '')}&catid=${issue.catid}`);
    expect(byDate.data.list.map((entry) => entry.id)).toEqual([issue.id]);
    const title = issue.pages[0]?.areas[0]?.title ?? '';
    const byTitle = await get<RawNewspaperSearch>(`/api/rmt/read_newspapers_search?q=${encodeURIComponent(title)}`);
    expect(byTitle.data.list.map((entry) => entry.id)).toContain(issue.id);
    expect((await get<RawNewspaperSearch>(`/api/rmt/read_newspapers_search?q=${encodeURIComponent('不存在的关键词😀')}`)).data.total).toBe(0);
  });

  it('serves the page images as JPEGs, and their older SVG form labelled with the paper and page', async () => {
    const issue = (await get<RawNewspaperSearch>('/api/rmt/read_newspapers_search?page_size=1')).data.list[0];
    const path = localPath(issue?.pages[1]?.image ?? '');
    const image = await getRaw(api, path);
    expect(image.status).toBe(200);
    expect([...image.body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const svg = await getRaw(api, path.replace(/\.jpg$/, '.svg'));
    expect(svg.body.toString('utf8')).toContain(`${issue?.paper_name} 第2版`);
  });
});

describe('discovery dataset', () => {
  let dataset: Dataset;

  beforeAll(() => {
    dataset = api.dataset;
  });

  it('has the promised counts', () => {
    expect(dataset.videos.length).toBeGreaterThanOrEqual(60);
    expect(dataset.albums.length).toBeGreaterThanOrEqual(8);
    expect(dataset.lives.length).toBeGreaterThanOrEqual(12);
    expect(new Set(dataset.lives.map((live) => live.status))).toEqual(new Set([1, 2, 3]));
    expect(dataset.newspapers.length).toBeGreaterThanOrEqual(30);
    expect(dataset.specials.length).toBeGreaterThanOrEqual(10);
    expect(dataset.boutique.length).toBeGreaterThanOrEqual(30);
    expect(dataset.playbacks.length).toBeGreaterThanOrEqual(6);
  });

  it('gives videos unique ids, Chinese titles, relative media paths and a category that exists', () => {
    const shikeIds = new Set(dataset.shikeCategories.map((category) => category.id));
    expect(new Set(dataset.videos.map((video) => video.id)).size).toBe(dataset.videos.length);
    for (const video of dataset.videos) {
      expect(shikeIds.has(video.category_id)).toBe(true);
      expect(dataset.categoryById.has(video.catid)).toBe(true);
      expect(video.title).toMatch(/^【视频】.*\p{Script=Han}/u);
      expect(video.cover).toMatch(IMAGE_PATH);
      expect(video.hls_url).toBe(`/media/hls/${video.hlsKey}/index.m3u8`);
      expect([4, 6]).toContain(video.duration);
      expect(video.adddate).toBeLessThan(NOW);
    }
    for (const album of dataset.albums) for (const id of album.videoIds) expect(dataset.videoById.has(id)).toBe(true);
  });

  it('files commentary under column authors and keeps every author’s list consistent', () => {
    const names = new Map(dataset.columnAuthors.map((author) => [author.id, author.name]));
    let total = 0;
    for (const [authorId, ids] of dataset.articlesByColumnist) {
      total += ids.length;
      for (const id of ids) expect(dataset.articleById.get(id)?.author).toBe(names.get(authorId));
    }
    expect(total).toBeGreaterThan(dataset.columnAuthors.length);
  });

  it('keeps newspaper issues one per paper and day, in the past', () => {
    const keys = dataset.newspapers.map((issue) => `${issue.catid}:${issue.issue_date}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const issue of dataset.newspapers) {
      expect(issue.adddate).toBeLessThanOrEqual(NOW);
      expect(issue.adddate).toBeGreaterThan(NOW - 100 * DAY);
    }
  });
});

describe('determinism of the new calls', () => {
  it('answers the same JSON from two APIs with the same seed and clock', async () => {
    // One more instance is enough: the suite's own API was built from the same seed and clock.
    const left = api;
    const right = createReferenceApi({ seed: SEED, now: NOW, publicUrl: PUBLIC });
    const paths = [
      '/api/rmt/get_headline_news?page=2',
      '/api/rmt/news_search_init?tag_id=3',
      '/api/video_album/shike_video_category_item?id=2839',
      '/api/live/list?show_type=3',
      '/api/rmt/read_newspapers_search?page_size=3',
      '/api/special/list_by_catid?catid=0',
      '/api/boutique/list',
    ];
    for (const path of paths) {
      const [a, b] = await Promise.all([request(left.handler).get(path), request(right.handler).get(path)]);
      expect(a.text).toBe(b.text);
    }
  });
});
