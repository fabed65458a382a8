/**
 * The personal center (issue 6) against the reference API: a visitor gets one shared, cached prompt (section
 * addresses redirect to it); a signed-in reader gets their own lists rendered on the server, private and never
 * stored, with paging, empty states and 404s for bad sections or pages past the last; the token never reaches the
 * HTML or the navigation data; a token the CMS has ended turns the reader back into a visitor.
 */
import request from 'supertest';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { PERSONAL_PAGE_SIZE } from '../../../shared/personal-center';
import { MAIN_DOMAIN } from '../../../shared/sites';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { cookieFrom, mainSitePage, setCookieLine, signIn, signInEnv } from '../../support/sign-in';

const ORIGIN = `https://${MAIN_DOMAIN}`;
const PROMPT = '登录后可查看您的收藏';

describe('personal center', () => {
  let upstream: ReferenceServer;
  let t: TestPortal;

  beforeAll(async () => {
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    t = await startTestPortal({ upstream, env: signInEnv(upstream.url) });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });
  afterEach(() => upstream.api.control.reset());

  const get = (path: string, session?: string) => mainSitePage(t, path, session);
  const post = (session: string, path: string, body: Record<string, unknown>) =>
    request(t.url).post(path).set('Host', MAIN_DOMAIN).set('Origin', ORIGIN).set('Cookie', `portal_session=${session}`).send(body);

  it('a visitor gets the sign-in prompt, cached and public; section addresses redirect to it', async () => {
    const first = await get('/personalCenter');
    expect(first.status).toBe(200);
    expect(first.text).toContain(PROMPT);
    expect(first.text).not.toContain('personal-tabs');
    // Streamed to this visitor with its own nonce: shared from its first HIT on (docs/security-headers.md).
    expect(first.headers['cache-control']).toBe('private, no-store');
    const second = await get('/personalCenter?utm_source=x');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.headers['cache-control']).toMatch(/^public/);
    for (const path of ['/personalCenter?tab=videos', '/personalCenter?page=2', '/personalCenter?tab=nonsense']) {
      const answer = await get(path);
      expect([path, answer.status, answer.headers.location]).toEqual([path, 302, '/personalCenter']);
    }
  });

  it('a signed-in reader sees their profile, lists and empty states, private and never cached', async () => {
    const session = await signIn(t, '中心读者');
    const page = await get('/personalCenter', session);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers['x-cache']).toBe('PASS');
    // Rendered for one reader: its scripts run by this response's nonce, never by a stored page's hashes.
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))?.[1];
    expect(page.text).toContain(`<script nonce="${nonce}"`);
    expect(page.headers['content-security-policy']).not.toContain("'sha256-");
    expect(page.text).toContain('中心读者');
    expect(page.text).toContain('刷新资料');
    expect(page.text).not.toContain(PROMPT);
    expect(page.text).toContain('还没有收藏的文章');
    for (const [tab, empty] of [
      ['videos', '还没有收藏的视频'],
      ['columns', '还没有订阅的专栏'],
      ['tags', '还没有订阅的标签'],
    ] as const) {
      expect((await get(`/personalCenter?tab=${tab}`, session)).text).toContain(empty);
    }
    expect((await get('/personalCenter?tab=feedback', session)).text).toContain('提交反馈');
    // The visitor's cached copy is untouched by the signed-in renders.
    const visitor = await get('/personalCenter');
    expect(visitor.text).toContain(PROMPT);
    expect(visitor.text).not.toContain('中心读者');
  });

  it('lists what the reader collected and subscribed, newest first, paged ten at a time, with links', async () => {
    const session = await signIn(t, '收藏很多的读者');
    const articles = upstream.api.dataset.articles.slice(0, PERSONAL_PAGE_SIZE + 2);
    for (const article of articles) {
      expect((await post(session, '/api/collection/toggle', { catid: article.catid, article_id: article.id })).body.code).toBe(0);
    }
    const video = upstream.api.dataset.videos[0]!;
    await post(session, '/api/collection_video/toggle', { catid: video.catid, article_id: video.id });
    const author = upstream.api.dataset.columnAuthors[1]!;
    await post(session, '/api/special_column_author/toggle', { author_id: author.id });
    const tag = upstream.api.dataset.tags[0]!;
    await post(session, '/api/tag/toggle', { tag_id: tag.id });

    const first = await get('/personalCenter', session);
    const newest = articles[articles.length - 1]!;
    expect(first.text).toContain(`href="/detail/${newest.catid}/${newest.id}"`);
    expect(first.text).not.toContain(`href="/detail/${articles[0]!.catid}/${articles[0]!.id}"`);
    expect(first.text).toContain('共12项');
    expect(first.text).toContain('href="/personalCenter?page=2"');
    const second = await get('/personalCenter?page=2', session);
    expect(second.text).toContain(`href="/detail/${articles[0]!.catid}/${articles[0]!.id}"`);
    expect((await get('/personalCenter?page=3', session)).status).toBe(404);

    expect((await get('/personalCenter?tab=videos', session)).text).toContain(`href="/video/${video.catid}/${video.id}"`);
    const columns = await get('/personalCenter?tab=columns', session);
    expect(columns.text).toContain(`href="/specialColumnDetail/${author.id}"`);
    expect(columns.text).toContain(author.name);
    expect((await get('/personalCenter?tab=tags', session)).text).toContain(`href="/tagDetail/${tag.id}"`);

    // The same lists reach a client navigation through the page data endpoint, privately.
    const data = await request(t.url)
      .get('/_data/page')
      .query({ path: '/personalCenter?tab=columns' })
      .set('Host', MAIN_DOMAIN)
      .set('Cookie', `portal_session=${session}`);
    expect(data.headers['cache-control']).toBe('private, no-store');
    expect(data.body.page.data).toMatchObject({ kind: 'member', section: { tab: 'columns', total: 1 } });
    const anonymousData = await request(t.url).get('/_data/page').query({ path: '/personalCenter' }).set('Host', MAIN_DOMAIN);
    expect(anonymousData.body.page.data).toEqual({ kind: 'visitor' });

    // No token anywhere: tokens are 48 hex characters in the reference API.
    for (const text of [first.text, columns.text, JSON.stringify(data.body)]) {
      expect(text).not.toMatch(/[0-9a-f]{48}/);
      expect(text).not.toContain(session);
      expect(text).not.toMatch(/"token"/);
    }
  });

  it('bad sections and pages are 404s for a signed-in reader', async () => {
    const session = await signIn(t, '乱填地址的读者');
    for (const path of [
      '/personalCenter?tab=nonsense',
      '/personalCenter?page=0',
      '/personalCenter?page=abc',
      '/personalCenter?tab=feedback&page=2',
      '/personalCenter?page=2',
    ]) {
      const answer = await get(path, session);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('a list the CMS cannot give says so instead of claiming it is empty', async () => {
    const session = await signIn(t, '遇到故障的读者');
    upstream.api.control.setFailures([{ path: '/api/collection/list_and_article_detail', mode: 'http500' }]);
    const page = await get('/personalCenter', session);
    expect(page.status).toBe(200);
    expect(page.text).toContain('暂时无法加载');
    expect(page.text).not.toContain('还没有收藏的文章');
  });

  it('a token the CMS has ended: the reader is a visitor again and the session cookie is cleared', async () => {
    const session = await signIn(t, '被注销的读者');
    upstream.api.accounts.reset();
    const page = await get('/personalCenter', session);
    expect(page.status).toBe(200);
    expect(page.text).toContain(PROMPT);
    expect(page.text).not.toContain('被注销的读者');
    expect(cookieFrom(page.headers['set-cookie'], 'portal_session')).toBe('');
    expect(setCookieLine(page.headers['set-cookie'], 'portal_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    const after = await get('/about', session);
    expect(after.text).not.toContain('被注销的读者');
  });
});
