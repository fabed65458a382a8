/**
 * The editors' preview (docs/preview.md) against two real portals on one Redis and the reference content API with
 * drafts: the signed link's contract (each wrong, old or replayed link a 401 saying why, setting nothing), a draft
 * update and a draft-only article seen in preview while a reader at the same moment gets the published page (or a
 * 404), nothing of a draft in Redis or either L1, client navigations and the phone link kept in preview, and after
 * publishing, the article's body byte for byte what the preview showed.
 */
import request from 'supertest';
import { PREVIEW_COOKIE, PREVIEW_HEADER, PREVIEW_HEADER_VALUE, PREVIEW_LINK_SECONDS, PREVIEW_SESSION_SECONDS } from '../../../server/preview/contract';
import { signPreviewLink } from '../../../server/preview/preview-link';
import { MAIN_SITE } from '../../../shared/sites';
import { pageKeyOf, startTestPortal, type TestPortal } from '../../support/portal';
import { callHook } from '../../support/publish-hook';
import { cookieSet, openPreview, previewLink, storedTexts } from '../../support/preview';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { homeListEntry } from '../../support/upstream-data';
import { deleteKeys, eventually, forgetEntries } from '../cache/redis-helpers';

const PREVIEW_SECRET = 'a-preview-secret-the-cms-signs-its-links-with-0123';
const PURGE_SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';
const HOST = MAIN_SITE.domain;

/** The article's body as the page shows it: the sanitised content's element, to the article's end. */
function articleBody(html: string): string {
  const start = html.indexOf('<div class="article__body">');
  if (start < 0) throw new Error('no article body in the page');
  return html.slice(start, html.indexOf('</article>', start));
}

describeWithRedis()('editor preview', () => {
  let a: TestPortal;
  let b: TestPortal;
  const env = { PREVIEW_SECRET, PURGE_SECRET, PUBLIC_ORIGIN_PROTOCOL: 'http' };
  beforeAll(async () => {
    a = await startTestPortal({ redisUrl: testRedisUrl(), env, announceEveryMs: 500 });
    b = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream, cachePrefix: a.cachePrefix, env, announceEveryMs: 500 });
  });
  afterEach(() => a.upstream.api.control.reset());
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (a) await deleteKeys(testRedisUrl(), a.cachePrefix);
  });

  const page = (t: TestPortal, path: string, cookie?: string) => {
    const call = request(t.url).get(path).set('host', HOST);
    return cookie ? call.set('cookie', cookie) : call;
  };

  describe('the signed link', () => {
    it('opens a preview: 303 to the page, an HttpOnly SameSite=Lax cookie of at most an hour, nothing cacheable', async () => {
      const path = '/about';
      const link = previewLink(PREVIEW_SECRET, path);
      const res = await page(a, link);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(path);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const line = (res.headers['set-cookie'] as unknown as string[]).find((cookie) => cookie.startsWith(`${PREVIEW_COOKIE}=`))!;
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).toMatch(/; Path=\//);
      expect(line).not.toMatch(/; Secure/); // this portal's readers are on http (PUBLIC_ORIGIN_PROTOCOL)
      const maxAge = Number(/Max-Age=(\d+)/.exec(line)?.[1]);
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(3600);
      // Its value opens nothing without the secret: neither the secret nor the link's signature is in it.
      const value = cookieSet(line, PREVIEW_COOKIE)!.split('=')[1]!;
      expect(value).not.toContain(PREVIEW_SECRET);
      expect(value).not.toContain(new URL(link, 'http://x').searchParams.get('sig')!);
    });

    it('marks the cookie Secure when readers are on https', async () => {
      const secure = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream, env: { PREVIEW_SECRET } });
      try {
        const res = await page(secure, previewLink(PREVIEW_SECRET, '/about'));
        expect(res.status).toBe(303);
        expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`${PREVIEW_COOKIE}=[^;]+;.*; Secure`));
      } finally {
        await secure.close();
        await deleteKeys(testRedisUrl(), secure.cachePrefix);
      }
    });

    const now = () => Math.floor(Date.now() / 1000);
    const signed = (path: string, t: number) => ({ path, t: String(t), sig: signPreviewLink(PREVIEW_SECRET, t, path) });
    it.each<[string, () => Record<string, string>, RegExp]>([
      ['no signature', () => ({ path: '/about', t: String(now()) }), /缺少参数 sig/],
      ['no time', () => ({ path: '/about', sig: '0'.repeat(64) }), /缺少参数 t</],
      ['no path', () => ({ t: String(now()), sig: '0'.repeat(64) }), /缺少参数 path/],
      [
        'a signature of another secret',
        () => ({ path: '/about', t: String(now()), sig: signPreviewLink('another-secret-of-at-least-32-characters!', now(), '/about') }),
        /签名与路径和时间不符/,
      ],
      ['a signature of another path', () => ({ ...signed('/about', now()), path: '/siteMap' }), /签名与路径和时间不符/],
      ['a signature of another time', () => ({ ...signed('/about', now()), t: String(now() - 10) }), /签名与路径和时间不符/],
      ['a link older than it lasts', () => signed('/about', now() - PREVIEW_LINK_SECONDS - 5), /秒，有效期为 300 秒/],
      ['a link dated in the future', () => signed('/about', now() + 600), /时钟快 (59\d|600) 秒/],
      ['a path of another origin', () => signed('//evil.example/about', now()), /不是本站的路径/],
      ['a path that is no page', () => signed('/_internal/purges', now()), /不是本站的页面/],
      ['a path in another spelling', () => signed('/about/../about', now()), /不是本站的规范写法/],
      ['a malformed signature', () => ({ path: '/about', t: String(now()), sig: 'xyz' }), /64 位十六进制数/],
    ])('refuses %s: 401 saying why, no cookie', async (_name, query, reason) => {
      const res = await page(a, `/_preview?${new URLSearchParams(query())}`);
      expect(res.status).toBe(401);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.text).toContain('预览链接无效');
      expect(res.text).toMatch(reason);
    });

    it('refuses a link used once already, on either instance and in capitals: 401, no cookie', async () => {
      // Links are made per path and second: this path is this case's alone.
      const link = previewLink(PREVIEW_SECRET, '/siteMap');
      expect((await page(a, link)).status).toBe(303);
      const shouted = link.replace(/sig=([0-9a-f]+)/, (_m, hex: string) => `sig=${hex.toUpperCase()}`);
      for (const [t, again] of [
        [b, link],
        [a, shouted],
      ] as const) {
        const res = await page(t, again);
        expect(res.status).toBe(401);
        expect(res.text).toContain('已使用过');
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('is a 404 without PREVIEW_SECRET, and a forged or expired cookie opens nothing', async () => {
      const off = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream });
      try {
        expect((await page(off, previewLink(PREVIEW_SECRET, '/about'))).status).toBe(404);
      } finally {
        await off.close();
        await deleteKeys(testRedisUrl(), off.cachePrefix);
      }
      const entry = await homeListEntry(a.upstream.url);
      a.upstream.api.control.draftArticle(entry.id, { title: '草稿标题：伪造的预览' });
      const cookie = await openPreview(a.url, HOST, PREVIEW_SECRET, '/license');
      const [version, expires, id, mac] = cookie.split('=')[1]!.split('.');
      const forged = [
        `${PREVIEW_COOKIE}=${version}.${Number(expires) + 60}.${id}.${mac}`, // stretched
        `${PREVIEW_COOKIE}=${version}.${Math.floor(Date.now() / 1000) - 1}.${id}.${mac}`, // past
        `${PREVIEW_COOKIE}=${version}.${expires}.${id}.${'A'.repeat(43)}`, // not signed
        `${PREVIEW_COOKIE}=junk`,
      ];
      for (const forgedCookie of forged) {
        const res = await page(a, `/detail/${entry.catid}/${entry.id}`, forgedCookie);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain('草稿标题');
        expect(res.text).not.toContain('预览模式');
      }
      expect(PREVIEW_SESSION_SECONDS).toBeLessThanOrEqual(3600);
    });
  });

  describe('a draft', () => {
    it('shows its title, body and picture in preview only; a reader at the same moment gets the published page; nothing of it is stored', async () => {
      const { control } = a.upstream.api;
      const entry = await homeListEntry(a.upstream.url, 1);
      const path = `/detail/${entry.catid}/${entry.id}`;
      const title = `草稿标题：预览中的更正 ${entry.id}`;
      const body = `<p>草稿正文：只有编辑能在预览中看到这一段 ${entry.id}</p>`;
      expect(control.draftArticle(entry.id, { title, content: body })).toBe(true);
      const draftOnly = control.createDraftArticle(entry.catid, { title: '草稿标题：尚未发布的新文章', content: '<p>草稿正文：新文章</p>' });
      expect(draftOnly).not.toBeNull();
      const draftOnlyPath = `/detail/${entry.catid}/${draftOnly}`;

      await forgetEntries(testRedisUrl(), a.cachePrefix);
      const cookie = await openPreview(a.url, HOST, PREVIEW_SECRET, path);
      // Before any reader: only the preview asks, on both instances, for both drafts and their client navigations.
      for (const t of [a, b]) {
        for (const [target, marker] of [
          [path, title],
          [draftOnlyPath, '尚未发布的新文章'],
        ] as const) {
          const res = await page(t, target, cookie);
          expect([target, res.status]).toEqual([target, 200]);
          expect(res.text).toContain(marker);
          expect(res.text).toContain('预览模式');
          expect(res.text).toContain('退出预览');
          expect(res.headers['cache-control']).toBe('private, no-store');
          expect(res.headers['x-robots-tag']).toBe('noindex');
          expect(res.headers['surrogate-key']).toBeUndefined();
          expect(res.headers['x-cache']).toBe('PASS');
          const data = await page(t, `/_data/page?path=${encodeURIComponent(target)}`, cookie);
          expect(data.status).toBe(200);
          expect(data.text).toContain(marker);
          expect(data.headers['cache-control']).toBe('private, no-store');
          expect(data.headers['x-robots-tag']).toBe('noindex');
        }
      }
      expect(articleBody((await page(a, path, cookie)).text)).toContain('草稿正文：只有编辑');
      // Nothing of either draft was stored: no page or data entry at all in Redis, none in either L1.
      const afterPreview = await storedTexts(testRedisUrl(), a.cachePrefix);
      expect([...afterPreview.keys()].filter((key) => key.includes(':page:') || key.includes(':data:'))).toEqual([]);
      for (const t of [a, b]) {
        const l1 = await request(t.url)
          .get('/_internal/l1')
          .query({ key: [pageKeyOf(a, MAIN_SITE.id, path), pageKeyOf(a, MAIN_SITE.id, draftOnlyPath)] });
        expect(l1.body.entries.map((copy: { present: boolean }) => copy.present)).toEqual([false, false]);
      }

      // Readers at the same moment, on both instances: the published page (then from the cache), and a 404.
      for (const t of [a, b]) {
        for (let round = 0; round < 2; round += 1) {
          const published = await page(t, path);
          expect(published.status).toBe(200);
          expect(published.text).toContain(entry.title);
          expect(published.text).not.toContain('草稿');
          expect(published.text).not.toContain('预览模式');
          expect((await page(t, draftOnlyPath)).status).toBe(404);
        }
        const res = await page(t, path, cookie);
        expect(res.text).toContain(title);
      }
      const held = await storedTexts(testRedisUrl(), a.cachePrefix);
      expect(held.size).toBeGreaterThan(0);
      for (const [key, text] of held) expect([key, text.includes('草稿')]).toEqual([key, false]);
    });

    it('asks the content API for drafts on every call of a preview, and on none of a reader’s', async () => {
      const seen: string[] = [];
      const { server } = a.upstream;
      const listener = (req: { headers: Record<string, string | string[] | undefined>; url?: string }) => {
        seen.push(`${req.headers[PREVIEW_HEADER] === PREVIEW_HEADER_VALUE ? 'draft' : 'published'} ${req.url}`);
      };
      server.prependListener('request', listener);
      try {
        const cookie = await openPreview(a.url, HOST, PREVIEW_SECRET, '/');
        seen.length = 0;
        expect((await page(b, '/', cookie)).status).toBe(200);
        expect(seen.length).toBeGreaterThan(3);
        expect(seen.filter((call) => call.startsWith('published'))).toEqual([]);
        seen.length = 0;
        expect((await page(b, '/siteMap')).status).toBe(200);
        expect(seen.filter((call) => call.startsWith('draft'))).toEqual([]);
      } finally {
        server.removeListener('request', listener);
      }
    });

    it('sends a phone to the mobile site with the preview kept (a link signed as the CMS signs)', async () => {
      const entry = await homeListEntry(a.upstream.url);
      const path = `/detail/${entry.catid}/${entry.id}`;
      const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
      const cookie = await openPreview(a.url, HOST, PREVIEW_SECRET, path);
      for (const target of [path, `/_data/page?path=${encodeURIComponent(path)}`]) {
        const res = await page(a, target, cookie).set('user-agent', phone);
        const location = res.status === 302 ? res.headers.location! : (res.body as { location: string }).location;
        const url = new URL(location);
        const t = Number(url.searchParams.get('preview_t'));
        const sig = url.searchParams.get('preview_sig');
        url.searchParams.delete('preview_t');
        url.searchParams.delete('preview_sig');
        expect([url.searchParams.get('catid'), url.searchParams.get('id')]).toEqual([String(entry.catid), String(entry.id)]);
        expect(sig).toBe(signPreviewLink(PREVIEW_SECRET, t, `${url.pathname}${url.search}`));
      }
      // A reader's phone link carries no preview.
      const reader = await page(a, path).set('user-agent', phone);
      expect(reader.headers.location).not.toContain('preview_');
    });

    it('after publishing, the published article’s body is byte for byte what the preview showed; 退出预览 ends the preview', async () => {
      const { control } = a.upstream.api;
      const entry = await homeListEntry(a.upstream.url, 2);
      const path = `/detail/${entry.catid}/${entry.id}`;
      expect((await page(a, path)).status).toBe(200); // the published page, now held
      control.draftArticle(entry.id, { title: `发布前的草稿 ${entry.id}`, content: `<p>发布后读者看到的正文 ${entry.id}</p><p>第二段</p>` });
      const cookie = await openPreview(b.url, HOST, PREVIEW_SECRET, path);
      const previewed = articleBody((await page(b, path, cookie)).text);
      expect(previewed).toContain('发布后读者看到的正文');
      expect(control.publishDraft(entry.id)).toBe(true);
      const hook = await callHook(a.url, PURGE_SECRET, { tags: [`article:${entry.id}`] });
      expect(hook.status).toBe(200);
      // The hook's soft purge: readers get the held page while one re-render runs, then the published one.
      for (const t of [a, b]) {
        const published = await eventually(
          () => page(t, path),
          (res) => res.headers['x-cache'] !== 'STALE',
        );
        expect(articleBody(published.text)).toBe(previewed);
      }

      const exit = await page(a, `/_preview/exit?path=${encodeURIComponent(path)}`, cookie);
      expect(exit.status).toBe(303);
      expect(exit.headers.location).toBe(path);
      expect(String(exit.headers['set-cookie'])).toMatch(new RegExp(`${PREVIEW_COOKIE}=;.*Expires=Thu, 01 Jan 1970`));
      // Somewhere else than the site is never where 退出预览 goes.
      expect((await page(a, '/_preview/exit?path=//evil.example/')).headers.location).toBe('/');
    });
  });
});
