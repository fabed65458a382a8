/** What a share preview and a search engine read from an article: Open Graph, Twitter card, JSON-LD NewsArticle. */
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { firstHomeArticle } from '../../support/upstream-data';

describe('structured data', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());

  it('describes an article as a NewsArticle with Open Graph and Twitter tags', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const res = await request(t.url).get(`/detail/${raw.catid}/${raw.id}?utm_source=weibo`);
    const json = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(res.text)?.[1];
    expect(json).toBeDefined();
    const data = JSON.parse(json!) as Record<string, unknown>;
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: raw.title,
      url: `https://www.qnnews.cn/detail/${raw.catid}/${raw.id}`,
      publisher: { '@type': 'Organization', name: '青年新闻网', logo: { '@type': 'ImageObject', url: 'https://www.qnnews.cn/logo.png' } },
    });
    expect(new Date(data.datePublished as string).getTime()).toBe(raw.adddate! * 1000);
    expect(res.text).toContain('<meta property="og:type" content="article">');
    expect(res.text).toContain(`<meta property="og:url" content="https://www.qnnews.cn/detail/${raw.catid}/${raw.id}">`);
    expect(res.text).toContain('<meta name="twitter:card"');
  });

  it('keeps the page number in the canonical URL and drops tracking parameters', async () => {
    const res = await request(t.url).get('/specialColumn?page=2&utm_source=x&spm=1');
    expect(res.text).toContain('<link rel="canonical" href="https://www.qnnews.cn/specialColumn?page=2">');
  });
});
