/**
 * What a reader of a Chinese news site expects around an article (breadcrumb 首页 > 栏目 > 正文, 责任编辑 from the
 * CMS, 相关阅读 of the same category, a night-mode switch in every page's header), and what share cards and
 * structured data carry: absolute URLs on the site's origin (or the media origin), raster pictures only.
 */
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { MAIN_DOMAIN, REGIONAL_SITES } from '../../../shared/sites';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { article, articleList, homeCategories } from '../../support/upstream-data';

const REGIONAL = REGIONAL_SITES[1]!;

function jsonLdOf(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
}

function metaOf(html: string, key: string): string | undefined {
  return new RegExp(`<meta (?:property|name)="${key.replace(':', '\\:')}" content="([^"]*)">`).exec(html)?.[1];
}

describe('the end of an article, and share pictures', () => {
  let t: TestPortal;
  let catid: number;
  let articles: Array<{ id: number; catid: number }>;

  beforeAll(async () => {
    t = await startTestPortal();
    const categories = await homeCategories(t.upstream.url, HOME_CATID);
    catid = categories[1]!.catid;
    articles = (await articleList(t.upstream.url, catid, 1, 20)).lists;
  });
  afterEach(() => {
    t.upstream.api.control.reset();
    t.upstream.api.control.setPublicUrl(t.upstream.url);
  });
  afterAll(async () => t.close());

  it.each([
    ['the main site', MAIN_DOMAIN],
    ['a regional site', REGIONAL.domain],
  ])('a detail page on %s has the breadcrumb, 责任编辑, 相关阅读 and a BreadcrumbList', async (_name, host) => {
    const target = articles[3]!;
    const raw = await article(t.upstream.url, target.catid, target.id);
    expect(raw.editor).toBeTruthy();
    const html = (await request(t.url).get(`/detail/${raw.catid}/${raw.id}`).set('Host', host)).text;
    const crumb = /<nav class="breadcrumb" aria-label="当前位置">(.*?)<\/nav>/s.exec(html)?.[1] ?? '';
    expect(crumb).toMatch(/<a href="\/"[^>]*>首页<\/a>/);
    expect(crumb).toMatch(new RegExp(`<a href="/V1/${raw.catid}"[^>]*>${raw.catname}</a>`));
    expect(crumb).toContain('<li aria-current="page">正文</li>');
    expect(html).toContain(`<p class="article__editor">责任编辑：${raw.editor}</p>`);

    const related = /<section class="related"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? '';
    const relatedLinks = [...related.matchAll(/href="\/detail\/(\d+)\/(\d+)"/g)].map((m) => Number(m[2]));
    const expected = articles
      .filter((item) => item.id !== raw.id)
      .slice(0, 6)
      .map((item) => item.id);
    expect(relatedLinks).toEqual(expected);
    expect(related).toContain('相关阅读');

    const trail = jsonLdOf(html).find((item) => item['@type'] === 'BreadcrumbList') as {
      itemListElement: Array<{ position: number; name: string; item: string }>;
    };
    expect(trail.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: '首页', item: `https://${host}/` },
      { '@type': 'ListItem', position: 2, name: raw.catname, item: `https://${host}/V1/${raw.catid}` },
      { '@type': 'ListItem', position: 3, name: raw.title, item: `https://${host}/detail/${raw.catid}/${raw.id}` },
    ]);
    const news = jsonLdOf(html).find((item) => item['@type'] === 'NewsArticle')!;
    expect(news.editor).toEqual({ '@type': 'Person', name: raw.editor });
  });

  it('the first article of a category lists the next six as related reading; an article without an editor shows none', async () => {
    const first = articles[0]!;
    t.upstream.api.control.overrideArticle(first.id, { editor: '' });
    const html = (await request(t.url).get(`/detail/${first.catid}/${first.id}`)).text;
    const related = /<section class="related"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? '';
    expect([...related.matchAll(/href="\/detail\/\d+\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual(articles.slice(1, 7).map((item) => item.id));
    expect(html).not.toContain('责任编辑');
  });

  // The switch needs script (localStorage): script renders it after hydration (test/browser/no-script.test.ts).
  it.each(['/', `/V1/2728`, '/siteMap', '/contribute', '/about', '/hd', '/specialColumn'])('%s sends no dead 夜间 switch in its header', async (path) => {
    const html = (await request(t.url).get(path)).text;
    const header = /<header class="site-header">(.*?)<\/header>/s.exec(html)?.[1] ?? '';
    expect(header).toContain('class="top-bar');
    expect(header).not.toContain('top-bar__night');
  });

  describe('share pictures', () => {
    function expectRaster(url: string | undefined, origins: string[]): void {
      expect(url).toBeDefined();
      const parsed = new URL(url!);
      expect(origins).toContain(parsed.origin);
      expect(parsed.pathname).toMatch(/\.(jpe?g|png|webp|gif)$/);
    }

    it('an article whose pictures are all SVG shares the raster logo, absolute, in og, twitter and nowhere an SVG', async () => {
      const target = articles[5]!;
      // The reference pictures are JPEG: this article is given SVG ones, as a CMS might send.
      t.upstream.api.control.overrideArticle(target.id, { thumb: `${t.upstream.url}/media/img/a${target.id}-640x360.svg`, content: '<p>只有文字的稿件。</p>' });
      const html = (await request(t.url).get(`/detail/${target.catid}/${target.id}`).set('Host', REGIONAL.domain)).text;
      for (const key of ['og:image', 'twitter:image']) expect(metaOf(html, key)).toBe(`https://${REGIONAL.domain}/logo.png`);
      expect(html).not.toMatch(/<meta [^>]*content="[^"]*\.svg"/);
      const news = jsonLdOf(html).find((item) => item['@type'] === 'NewsArticle')!;
      expect(news.image).toBeUndefined();
    });

    it.each([
      ['a site-relative JPEG', 7, '/media/img/a1-600x400.jpg', (host: string) => `https://${host}/media/img/a1-600x400.jpg`],
      ['an absolute WebP on the media origin', 8, 'https://img.qnnews.cn/2026/11/a.webp', () => 'https://img.qnnews.cn/2026/11/a.webp'],
      ['a protocol-relative PNG', 9, '//img.qnnews.cn/b.png', () => 'https://img.qnnews.cn/b.png'],
    ])('an article with %s thumb shares it absolute in og, twitter and JSON-LD', async (_name, index, thumb, expected) => {
      // A different article each time: each page is cached once rendered.
      const target = articles[index]!;
      t.upstream.api.control.setPublicUrl('');
      t.upstream.api.control.overrideArticle(target.id, { thumb });
      const html = (await request(t.url).get(`/detail/${target.catid}/${target.id}`).set('Host', MAIN_DOMAIN)).text;
      const url = expected(MAIN_DOMAIN);
      expect(metaOf(html, 'og:image')).toBe(url);
      expect(metaOf(html, 'twitter:image')).toBe(url);
      expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
      expect(jsonLdOf(html).find((item) => item['@type'] === 'NewsArticle')!.image).toEqual([url]);
      expectRaster(url, [`https://${MAIN_DOMAIN}`, 'https://img.qnnews.cn']);
    });

    it('a video page shares absolute raster pictures and an absolute contentUrl', async () => {
      t.upstream.api.control.setPublicUrl('');
      const html = (await request(t.url).get('/shike/2839')).text;
      const videoPath = /href="(\/video\/\d+\/\d+)"/.exec(html)![1]!;
      const page = (await request(t.url).get(videoPath)).text;
      const video = jsonLdOf(page).find((item) => item['@type'] === 'VideoObject')!;
      expect(String(video.contentUrl)).toMatch(new RegExp(`^https://${MAIN_DOMAIN.replace(/\./g, '\\.')}/`));
      for (const url of video.thumbnailUrl as string[]) expectRaster(url, [`https://${MAIN_DOMAIN}`]);
      expectRaster(metaOf(page, 'og:image'), [`https://${MAIN_DOMAIN}`]);
    });
  });
});
