import request from 'supertest';
import { createReferenceApi, type ReferenceApi } from '../../../scripts/reference-api/app';
import { CODE_LOGIN_FAILED, CODE_NOT_SIGNED_IN, MSG_LOGIN_FAILED, MSG_NOT_SIGNED_IN } from '../../../scripts/reference-api/accounts';
import { NOW, SEED } from './fixtures';

let api: ReferenceApi;

beforeEach(() => {
  api = createReferenceApi({ seed: SEED, now: NOW, publicUrl: 'http://media.test:8080' });
});

const QR_QUERY = {
  appid: 'wxtest',
  redirect_uri: 'https://www.qnnews.cn/login/wechat/callback?return=%2Fdetail%2F1%2F2',
  response_type: 'code',
  scope: 'snsapi_login',
  state: 'a'.repeat(64),
};

async function scan(nickname?: string): Promise<URL> {
  const page = await request(api.handler).get('/__wechat/qrconnect').query(QR_QUERY);
  expect(page.status).toBe(200);
  expect(page.text).toContain('模拟扫码确认');
  const action = /action="([^"]+)"/.exec(page.text)![1]!;
  const fields = Object.fromEntries([...page.text.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace(/&#38;/g, '&')]));
  const confirmed = await request(api.handler)
    .get(action)
    .query({ ...fields, ...(nickname ? { nickname } : {}) });
  expect(confirmed.status).toBe(302);
  return new URL(confirmed.headers.location as string);
}

async function signIn(nickname?: string): Promise<{ token: string; userId: number; nickname: string }> {
  const code = (await scan(nickname)).searchParams.get('code');
  const reply = await request(api.handler).post('/api/user/third').send({ platform: 'wechat_webapp', code });
  expect(reply.body.code).toBe(0);
  return { token: reply.body.data.token, userId: reply.body.data.user_id, nickname: reply.body.data.userinfo.nickname };
}

describe('simulated WeChat sign-in', () => {
  it('the QR page redirects to redirect_uri with a code and the same state, keeping its query', async () => {
    const target = await scan();
    expect(target.origin + target.pathname).toBe('https://www.qnnews.cn/login/wechat/callback');
    expect(target.searchParams.get('return')).toBe('/detail/1/2');
    expect(target.searchParams.get('state')).toBe('a'.repeat(64));
    expect(target.searchParams.get('code')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('refuses a request without what WeChat requires', async () => {
    for (const missing of ['appid', 'redirect_uri', 'response_type', 'scope']) {
      const query: Record<string, string> = { ...QR_QUERY };
      delete query[missing];
      expect((await request(api.handler).get('/__wechat/qrconnect').query(query)).status).toBe(400);
    }
    expect(
      (
        await request(api.handler)
          .get('/__wechat/qrconnect')
          .query({ ...QR_QUERY, scope: 'snsapi_userinfo' })
      ).status,
    ).toBe(400);
  });

  it('exchanges a code once for a token and the user info; a replayed or unknown code fails', async () => {
    const code = (await scan('小明')).searchParams.get('code');
    const first = await request(api.handler).post('/api/user/third').send({ platform: 'wechat_webapp', code });
    expect(first.body).toMatchObject({ code: 0, data: { userinfo: { nickname: '小明' } } });
    expect(first.body.data.user_id).toBe(first.body.data.userinfo.user_id);
    expect(first.body.data.userinfo.avatar).toMatch(/^http:\/\/media\.test:8080\/media\/img\/u\d+-64x64\.jpg$/);
    const replay = await request(api.handler).post('/api/user/third').send({ platform: 'wechat_webapp', code });
    expect(replay.body).toEqual({ code: CODE_LOGIN_FAILED, msg: MSG_LOGIN_FAILED, data: null });
    const unknown = await request(api.handler).post('/api/user/third').send({ platform: 'wechat_webapp', code: 'nope' });
    expect(unknown.body.code).toBe(CODE_LOGIN_FAILED);
    const wrongPlatform = await request(api.handler).post('/api/user/third').send({ platform: 'qq', code: api.accounts.issueCode() });
    expect(wrongPlatform.body.code).toBe(CODE_LOGIN_FAILED);
  });

  it('the same nickname is the same user; another nickname another user', async () => {
    const a = await signIn('甲');
    const again = await signIn('甲');
    const b = await signIn('乙');
    expect(again.userId).toBe(a.userId);
    expect(again.token).not.toBe(a.token);
    expect(b.userId).not.toBe(a.userId);
  });
});

describe('signed-in calls', () => {
  it('need a valid token header', async () => {
    for (const path of ['/api/user/profile', '/api/user/logout', '/api/thumbsup/toggle', '/api/collection/batch_exist']) {
      const reply = await request(api.handler).post(path).send({ catid: 1, article_id: 2 });
      expect(reply.body).toEqual({ code: CODE_NOT_SIGNED_IN, msg: MSG_NOT_SIGNED_IN, data: null });
      expect((await request(api.handler).post(path).set('token', 'forged').send({})).body.code).toBe(CODE_NOT_SIGNED_IN);
    }
  });

  it('profile answers the user; logout ends the token', async () => {
    const user = await signIn('丙');
    const profile = await request(api.handler).post('/api/user/profile').set('token', user.token);
    expect(profile.body).toMatchObject({ code: 0, data: { userinfo: { user_id: user.userId, nickname: '丙' } } });
    expect((await request(api.handler).post('/api/user/logout').set('token', user.token)).body.code).toBe(0);
    expect((await request(api.handler).post('/api/user/profile').set('token', user.token)).body.code).toBe(CODE_NOT_SIGNED_IN);
  });

  it('likes and collections toggle per user, batch_exist reports each id, get_num counts users', async () => {
    const a = await signIn('A');
    const b = await signIn('B');
    const like = (token: string) => request(api.handler).post('/api/thumbsup/toggle').set('token', token).send({ catid: 7, article_id: 42 });
    expect((await like(a.token)).body.data).toEqual({ status: 1 });
    expect((await like(b.token)).body.data).toEqual({ status: 1 });
    const num = () => request(api.handler).get('/api/thumbsup/get_num').query({ catid: 7, article_id: 42 });
    expect((await num()).body.data).toEqual({ num: 2 });
    expect((await like(a.token)).body.data).toEqual({ status: 0 });
    expect((await num()).body.data).toEqual({ num: 1 });

    await request(api.handler).post('/api/collection/toggle').set('token', a.token).send({ catid: 7, article_id: 43 });
    const exist = await request(api.handler)
      .post('/api/collection/batch_exist')
      .set('token', a.token)
      .send({ catid: 7, list: [42, 43] });
    expect(exist.body.data).toEqual({ '42': 0, '43': 1 });
    const other = await request(api.handler).post('/api/collection/batch_exist').set('token', b.token).send({ catid: 7, list: '42,43' });
    expect(other.body.data).toEqual({ '42': 0, '43': 0 });
    const video = await request(api.handler)
      .post('/api/collection_video/batch_exist')
      .set('token', a.token)
      .send({ catid: 7, list: [43] });
    expect(video.body.data).toEqual({ '43': 0 });
  });

  it('subscriptions to column authors and tags toggle per user, report batch state and list newest first', async () => {
    const a = await signIn('订阅者');
    const as = (path: string, body: Record<string, unknown>) => request(api.handler).post(path).set('token', a.token).send(body);
    expect((await as('/api/column_subscribe/toggle', { author_id: 3 })).body.data).toEqual({ subscribe_status: 1 });
    expect((await as('/api/special_column_author/toggle', { author_id: 5 })).body.data).toEqual({ subscribe_status: 1 });
    expect((await as('/api/column_subscribe/batch_exist', { list: [3, 4, 5] })).body.data).toEqual({ '3': 1, '4': 0, '5': 1 });
    const list = await request(api.handler).get('/api/column_subscribe/list?page=1&page_size=1').set('token', a.token);
    expect(list.body.data).toEqual({ lists: [{ id: 5 }], total: 2, page: 1, page_size: 1 });
    expect((await as('/api/tag/toggle', { tag_id: 9 })).body.data).toEqual({ subscribe_status: 1 });
    expect((await as('/api/tag/toggle', { tag_id: 9 })).body.data).toEqual({ subscribe_status: 0 });
    expect((await request(api.handler).get('/api/tag/get_subscribe_list').set('token', a.token)).body.data.total).toBe(0);
    expect((await request(api.handler).get('/api/tag/get_subscribe_list')).body.code).toBe(CODE_NOT_SIGNED_IN);
  });

  it('lists collected articles and videos with their details, newest first, paged, per user', async () => {
    const a = await signIn('收藏者');
    const b = await signIn('旁观者');
    const articles = api.dataset.articles.slice(0, 3);
    for (const article of articles) {
      await request(api.handler).post('/api/collection/toggle').set('token', a.token).send({ catid: article.catid, article_id: article.id });
    }
    const video = api.dataset.videos[0]!;
    await request(api.handler).post('/api/collection_video/toggle').set('token', a.token).send({ catid: video.catid, article_id: video.id });
    const list = (token: string, path: string, query = '') => request(api.handler).get(`${path}${query}`).set('token', token);

    const first = (await list(a.token, '/api/collection/list_and_article_detail', '?page=1&page_size=2')).body;
    expect(first.code).toBe(0);
    expect(first.data.total).toBe(3);
    expect(first.data.list.map((item: { id: number }) => item.id)).toEqual([articles[2]!.id, articles[1]!.id]);
    expect(first.data.list[0]).toMatchObject({ catid: articles[2]!.catid, title: articles[2]!.title });
    expect(first.data.list[0].thumb).toMatch(/^http:\/\/media\.test:8080\/media\//);
    const second = (await list(a.token, '/api/collection/list_and_article_detail', '?page=2&page_size=2')).body.data;
    expect(second.list.map((item: { id: number }) => item.id)).toEqual([articles[0]!.id]);

    const videos = (await list(a.token, '/api/collection_video/list_and_article_detail')).body.data;
    expect(videos).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect(videos.list[0]).toMatchObject({ id: video.id, title: video.title });
    expect(videos.list[0].hlsKey).toBeUndefined();

    expect((await list(b.token, '/api/collection/list_and_article_detail')).body.data.total).toBe(0);
    expect((await request(api.handler).get('/api/collection/list_and_article_detail')).body.code).toBe(CODE_NOT_SIGNED_IN);
    for (const query of ['?page=0', '?page=x', '?page_size=51']) {
      expect((await list(a.token, '/api/collection/list_and_article_detail', query)).body.code).toBe(40000);
    }
  });

  it('lists subscribed authors (special_column_author/subscribe_list) and tags with names', async () => {
    const a = await signIn('订阅列表');
    const [first, second] = api.dataset.columnAuthors;
    await request(api.handler).post('/api/special_column_author/toggle').set('token', a.token).send({ author_id: first!.id });
    await request(api.handler).post('/api/column_subscribe/toggle').set('token', a.token).send({ author_id: second!.id });
    const authors = (await request(api.handler).get('/api/special_column_author/subscribe_list?page=1&page_size=10').set('token', a.token)).body.data;
    expect(authors.total).toBe(2);
    expect(authors.list.map((author: { id: number }) => author.id)).toEqual([second!.id, first!.id]);
    expect(authors.list[0]).toMatchObject({ name: second!.name, subscribe_status: 1 });
    const tag = api.dataset.tags[2]!;
    await request(api.handler).post('/api/tag/toggle').set('token', a.token).send({ tag_id: tag.id });
    const tags = (await request(api.handler).get('/api/tag/get_subscribe_list').set('token', a.token)).body.data;
    expect(tags).toEqual({ lists: [{ id: tag.id, name: tag.name }], total: 1, page: 1, page_size: 10 });
  });

  it('takes feedback from a signed-in reader only, checked like the portal checks it', async () => {
    const a = await signIn('反馈者');
    const send = (body: Record<string, unknown>, token: string | null = a.token) => {
      const call = request(api.handler).post('/api/common/feedback');
      return (token ? call.set('token', token) : call).send(body);
    };
    const accepted = await send({ content: '  页面很好用，希望增加夜间模式。 ', contact: 'reader@example.cn' });
    expect(accepted.body).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    expect(api.accounts.feedbackOf(a.userId)).toEqual([expect.objectContaining({ content: '页面很好用，希望增加夜间模式。', contact: 'reader@example.cn' })]);
    for (const body of [{}, { content: '太短' }, { content: '长'.repeat(501) }, { content: 12345 }, { content: '内容足够长了', contact: 'x'.repeat(101) }]) {
      const reply = await send(body);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ code: 40000, data: null });
      expect(reply.body.msg).toMatch(/反馈内容|联系方式/);
    }
    expect((await send({ content: '没有登录的反馈' }, null)).body.code).toBe(CODE_NOT_SIGNED_IN);
    expect(api.accounts.feedbackOf(a.userId)).toHaveLength(1);
  });

  it('bad parameters are 40000', async () => {
    const a = await signIn();
    const reply = await request(api.handler).post('/api/thumbsup/toggle').set('token', a.token).send({ catid: 'x', article_id: 1 });
    expect(reply.body.code).toBe(40000);
  });
});
