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
    expect((await request(api.handler).get('/__wechat/qrconnect').query({ ...QR_QUERY, scope: 'snsapi_userinfo' })).status).toBe(400);
  });

  it('exchanges a code once for a token and the user info; a replayed or unknown code fails', async () => {
    const code = (await scan('小明')).searchParams.get('code');
    const first = await request(api.handler).post('/api/user/third').send({ platform: 'wechat_webapp', code });
    expect(first.body).toMatchObject({ code: 0, data: { userinfo: { nickname: '小明' } } });
    expect(first.body.data.user_id).toBe(first.body.data.userinfo.user_id);
    expect(first.body.data.userinfo.avatar).toMatch(/^http:\/\/media\.test:8080\/media\/img\/u\d+-64x64\.svg$/);
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
    const exist = await request(api.handler).post('/api/collection/batch_exist').set('token', a.token).send({ catid: 7, list: [42, 43] });
    expect(exist.body.data).toEqual({ '42': 0, '43': 1 });
    const other = await request(api.handler).post('/api/collection/batch_exist').set('token', b.token).send({ catid: 7, list: '42,43' });
    expect(other.body.data).toEqual({ '42': 0, '43': 0 });
    const video = await request(api.handler).post('/api/collection_video/batch_exist').set('token', a.token).send({ catid: 7, list: [43] });
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

  it('bad parameters are 40000', async () => {
    const a = await signIn();
    const reply = await request(api.handler).post('/api/thumbsup/toggle').set('token', a.token).send({ catid: 'x', article_id: 1 });
    expect(reply.body.code).toBe(40000);
  });
});
