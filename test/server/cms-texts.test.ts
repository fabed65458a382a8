/**
 * Every text from the CMS is safe for every encoder (docs/security.md, "The content API is not trusted"): the
 * reference content API's answers with lone surrogates (`\ud800`, `\udfff`, and a pair reversed) put into every
 * string field, as a real JSON encoder writes them, render every page kind a crawler reaches (details, lists,
 * home, search, topics, videos, the feeds and sitemaps, JSON-LD, share links) without a 5xx; what reaches a page
 * is well-formed (the surrogates read as U+FFFD).
 */
import request from 'supertest';
import { startReferenceApi } from '../../scripts/reference-api/server';
import { encodeKeyword } from '../../shared/search-keyword';
import { MAIN_DOMAIN } from '../../shared/sites';
import { isWellFormed } from '../../server/platform/well-formed';
import { crawl, seedPaths } from '../support/crawl';
import { callback, confirmScan, signInCookies, signInEnv, startLogin } from '../support/sign-in';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../support/portal';
import { startRewritingUpstream, type RewritingUpstream } from '../support/rewriting-upstream';

const ORIGIN = `https://${MAIN_DOMAIN}`;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** The spellings a lone surrogate takes: a high one, a low one, a pair in the wrong order, each alone or in text. */
const VARIANTS = ['\ud800', '\udfff', '\udfff\ud800', '\udbff\udbff', '\udc00x\ud800'] as const;

/**
 * Digits stay digits (ids and counts the schemas coerce); every other text gets a surrogate in the middle and at
 * the end. Except the session token, which is not text (a token that cannot be a header is a failed sign-in, below).
 */
function withSurrogates(variant: string) {
  return (key: string, value: unknown): unknown => {
    if (typeof value !== 'string' || /^\d*$/.test(value) || key === 'token') return value;
    const middle = Math.floor(value.length / 2);
    return value.slice(0, middle) + variant + value.slice(middle) + variant;
  };
}

// One reference API, one rewriting server and one portal for every variant and the session tokens (a portal each
// took most of the suite's time): the rewriting server rewrites as the block running now says, and each variant
// starts from an empty cache, so no page or CMS answer of the variant before it is served.
describe('one portal, its CMS rewriting its answers as each block says', () => {
  let reference: ReferenceServer;
  let rewriting: RewritingUpstream;
  let t: TestPortal;
  let rewrite: (key: string, value: unknown) => unknown = (_key, value) => value;

  beforeAll(async () => {
    reference = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    rewriting = await startRewritingUpstream(reference, (key, value) => rewrite(key, value));
    t = await startTestPortal({ upstream: rewriting.asUpstream, env: signInEnv });
  });
  afterAll(async () => {
    await t?.close();
    await rewriting?.close();
    await reference?.close();
  });

  describe.each(VARIANTS.map((variant, index) => [JSON.stringify(variant), variant, index] as const))('CMS texts holding %s', (_label, variant, index) => {
    beforeAll(async () => {
      rewrite = withSurrogates(variant);
      // Forget every page and CMS answer the portal holds (its data and page caches live under its prefix).
      const store = t.portal.store;
      await store.deleteKeys(await store.keysMatching(`${t.cachePrefix}:*`));
      expect(await store.keysMatching(`${t.cachePrefix}:*`)).toEqual([]);
    });

    it('every page kind a crawler reaches answers without a 5xx, well-formed', async () => {
      const searches = ['新闻', '青年', 'a\ufffdb'].map((word) => `/search/${encodeKeyword(word)}/1`);
      const start = ['/', '/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/news.xml', ...searches, ...(await seedPaths(reference.url))];
      const pages = await crawl(t.url, { host: MAIN_DOMAIN, origin: ORIGIN, start, perKind: 2 });
      const kinds = new Set(pages.map((page) => page.kind));
      // The crawl reached the page kinds that show CMS text: a weaker crawl would pass without testing them.
      for (const kind of ['home', 'detail', 'categoryList', 'search', 'articleFeed', 'video', 'shike', 'rss', '/sitemaps/news.xml', '/sitemaps/pages.xml']) {
        expect([kind, kinds.has(kind)]).toEqual([kind, true]);
      }
      expect(pages.some((page) => page.route === 'tagDetail')).toBe(true);
      expect(kinds.size).toBeGreaterThanOrEqual(12);
      const failures = pages.filter((page) => page.status >= 500).map((page) => `${page.path}: ${page.status}`);
      expect(failures).toEqual([]);
      // The bytes on the wire are UTF-8 (an encoder writes U+FFFD for a lone surrogate), but the page's state is JSON
      // the browser decodes: a `\ud800` escape there would be a lone surrogate again in the hydrated page.
      const malformed = pages.filter((page) => !isWellFormed(page.body) || SURROGATE_ESCAPE.test(page.body)).map((page) => page.path);
      expect(malformed).toEqual([]);
      // The CMS's text arrived (as U+FFFD where it was broken), so the pages did render it.
      const detail = pages.find((page) => page.kind === 'detail' && page.status === 200);
      expect(detail?.body).toContain('\ufffd');
      expect(detail?.body).toMatch(/application\/ld\+json/);
      expect(pages.find((page) => page.kind === 'rss')?.body).toContain('\ufffd');
    }, 120_000);

    it("a reader's profile and lists holding them render, every tab", async () => {
      // A reader of this variant's own (one user per nickname): the toggles below start from empty lists.
      const reader = await signInCookies(t, `读者${index + 1}`);
      const post = (path: string, body: object) =>
        request(t.url).post(path).set('Host', MAIN_DOMAIN).set('Origin', ORIGIN).set('Cookie', reader.cookie).send(body);
      const article = reference.api.dataset.articles[0]!;
      const video = reference.api.dataset.videos[0]!;
      expect((await post('/api/collection/toggle', { catid: article.catid, article_id: article.id })).body.code).toBe(0);
      expect((await post('/api/collection_video/toggle', { catid: video.catid, article_id: video.id })).body.code).toBe(0);
      expect((await post('/api/special_column_author/toggle', { author_id: reference.api.dataset.columnAuthors[0]!.id })).body.code).toBe(0);
      expect((await post('/api/tag/toggle', { tag_id: reference.api.dataset.tags[0]!.id })).body.code).toBe(0);
      for (const tab of ['articles', 'videos', 'columns', 'tags']) {
        const page = await request(t.url).get(`/personalCenter?tab=${tab}`).set('Host', MAIN_DOMAIN).set('Cookie', reader.cookie);
        expect([tab, page.status]).toEqual([tab, 200]);
        expect([tab, isWellFormed(page.text) && !SURROGATE_ESCAPE.test(page.text)]).toEqual([tab, true]);
        expect([tab, page.text.includes('\ufffd')]).toEqual([tab, true]);
      }
    });
  });

  describe('a session token from the CMS that cannot stand in a header', () => {
    let token = '';
    beforeAll(() => {
      rewrite = (key, value) => (key === 'token' && typeof value === 'string' ? token : value);
    });

    it.each(['a b', 'tok\u0000en', 'tök', '\ud800tok', 'x\r\nSet-Cookie: a=b', '\u3000', 'tab\there'])(
      '%j is a failed sign-in (400), no session',
      async (bad) => {
        token = bad;
        const login = await startLogin(t, '/');
        const back = await callback(t, await confirmScan(t, login, '读者'), login.state);
        expect(back.status).toBe(400);
        expect(String(back.headers['set-cookie'] ?? '')).not.toContain('portal_session=');
      },
    );
  });
});

describe('CMS texts holding C0 controls and noncharacters', () => {
  /** What no HTML text, XML 1.0 document or JSON-LD block may carry; tab, LF and CR are text. */
  // eslint-disable-next-line no-control-regex
  const UNWRITABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
  let reference: ReferenceServer;
  let rewriting: RewritingUpstream;
  let t: TestPortal;

  beforeAll(async () => {
    reference = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    rewriting = await startRewritingUpstream(reference, withSurrogates('\u0000\u0001\u0008\u000b\u000c\u001b\u001f\ufffe\uffff'));
    t = await startTestPortal({ upstream: rewriting.asUpstream });
  });
  afterAll(async () => {
    await t.close();
    await rewriting.close();
    await reference.close();
  });

  it('reach no page, feed or sitemap: every page kind answers without a 5xx and without them', async () => {
    const start = ['/', '/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/news.xml', `/search/${encodeKeyword('新闻')}/1`, ...(await seedPaths(reference.url))];
    const pages = await crawl(t.url, { host: MAIN_DOMAIN, origin: ORIGIN, start, perKind: 2 });
    const kinds = new Set(pages.map((page) => page.kind));
    for (const kind of ['home', 'detail', 'categoryList', 'search', 'video', 'rss', '/sitemaps/news.xml'])
      expect([kind, kinds.has(kind)]).toEqual([kind, true]);
    expect(pages.filter((page) => page.status >= 500).map((page) => `${page.path}: ${page.status}`)).toEqual([]);
    expect(pages.filter((page) => UNWRITABLE.test(page.body)).map((page) => page.path)).toEqual([]);
    // The texts around them did arrive: an article's heading is the CMS's title without them.
    const entry = reference.api.dataset.articles.find((item) => pages.some((page) => page.path === `/detail/${item.catid}/${item.id}`));
    const detail = pages.find((page) => entry && page.path === `/detail/${entry.catid}/${entry.id}`);
    expect(detail?.body).toContain(`>${escapeText(entry!.title)}<`);
  });
});

/** The CMS's title as the page writes a heading's text. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
