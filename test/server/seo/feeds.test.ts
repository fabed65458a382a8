/** robots.txt, sitemaps and RSS per site: valid XML, real URLs only, cached like pages. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { MAIN_SITE, REGIONAL_SITES } from '../../../shared/sites';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { articleList, homeCategories } from '../../support/upstream-data';

const parser = new XMLParser({ ignoreAttributes: false });
const REGIONAL = REGIONAL_SITES[2]!;

function validXml(text: string): Record<string, unknown> {
  expect(XMLValidator.validate(text)).toBe(true);
  return parser.parse(text) as Record<string, unknown>;
}

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

describe('robots, sitemaps and feeds', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());

  it('robots.txt points at the site own sitemap', async () => {
    const res = await request(t.url).get('/robots.txt').set('Host', REGIONAL.domain);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`Sitemap: https://${REGIONAL.domain}/sitemap.xml`);
    expect(res.text).toContain('Disallow: /_data/');
  });

  async function mapInBatches<T, R>(items: readonly T[], size: number, each: (item: T) => Promise<R>): Promise<R[]> {
    const results: R[] = [];
    for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(each))));
    return results;
  }

  it.each([MAIN_SITE.domain, REGIONAL.domain])(
    'lists only URLs that answer 200 in the sitemaps of %s',
    async (host) => {
      const index = validXml((await request(t.url).get('/sitemap.xml').set('Host', host)).text);
      const sitemaps = asArray((index.sitemapindex as { sitemap: { loc: string } | Array<{ loc: string }> }).sitemap);
      expect(sitemaps.map((entry) => entry.loc)).toEqual([`https://${host}/sitemaps/pages.xml`, `https://${host}/sitemaps/news.xml`]);
      let checked = 0;
      for (const sitemap of sitemaps) {
        const res = await request(t.url).get(new URL(sitemap.loc).pathname).set('Host', host);
        expect(res.headers['content-type']).toContain('application/xml');
        const urls = asArray((validXml(res.text).urlset as { url: { loc: string } | Array<{ loc: string }> }).url);
        expect(urls.length).toBeGreaterThan(5);
        // A few at a time, as a crawler does.
        const answers = await mapInBatches(urls, 4, async ({ loc }) => {
          const url = new URL(loc);
          const page = await request(t.url)
            .get(url.pathname + url.search)
            .set('Host', host);
          return [loc, url.host, page.status];
        });
        for (const [loc, , status] of answers) expect([loc, status]).toEqual([loc, 200]);
        for (const [, urlHost] of answers) expect(urlHost).toBe(host);
        checked += answers.length;
      }
      expect(checked).toBeGreaterThan(20);
      // Every listed page is rendered once, one after another: on a busy machine that takes a while.
    },
    240_000,
  );

  it('serves a category RSS 2.0 feed with real article links, cached on the second request', async () => {
    const [category] = await homeCategories(t.upstream.url, HOME_CATID);
    const list = await articleList(t.upstream.url, category!.catid, 1, 20);
    const res = await request(t.url).get(`/rss/${category!.catid}.xml`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/rss+xml');
    const rss = validXml(res.text).rss as { channel: { title: string; item: Array<{ title: string; link: string; pubDate: string }> } };
    expect(rss.channel.title).toContain(category!.catname);
    expect(rss.channel.item).toHaveLength(Math.min(20, list.total));
    const first = list.lists[0]!;
    expect(rss.channel.item[0]!.link).toBe(`https://${MAIN_SITE.domain}/detail/${first.catid}/${first.id}`);
    expect(new Date(rss.channel.item[0]!.pubDate).getTime()).toBe(first.adddate! * 1000);
    expect((await request(t.url).get(`/rss/${category!.catid}.xml`)).headers['x-cache']).toBe('HIT');
  });

  it('titles every RSS item with the full headline, not the shorter list_title', async () => {
    const [, category] = await homeCategories(t.upstream.url, HOME_CATID);
    const list = await articleList(t.upstream.url, category!.catid, 1, 20);
    const shortened = list.lists.filter((item) => item.list_title !== '' && item.list_title !== item.title);
    expect(shortened.length).toBeGreaterThan(0);
    const rss = validXml((await request(t.url).get(`/rss/${category!.catid}.xml`)).text).rss as { channel: { item: Array<{ title: string }> } };
    expect(rss.channel.item.map((item) => String(item.title))).toEqual(list.lists.map((item) => item.title));
  });

  it('serves /favicon.ico as an icon', async () => {
    const res = await request(t.url).get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    // An ICO header: reserved 0, type 1, at least one image.
    expect([...(res.body as Buffer).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  it('advertises on each page kind a feed that answers: the category feed on lists and articles, the site feed elsewhere', async () => {
    const [category] = await homeCategories(t.upstream.url, HOME_CATID);
    const first = (await articleList(t.upstream.url, category!.catid)).lists[0]!;
    const pages = [
      { path: `/V1/${category!.catid}`, feed: `/rss/${category!.catid}.xml` },
      { path: `/detail/${first.catid}/${first.id}`, feed: `/rss/${first.catid}.xml` },
      { path: `/detailReading/${first.catid}/${first.id}`, feed: `/rss/${first.catid}.xml` },
      { path: '/', feed: null },
      { path: '/siteMap', feed: null },
    ];
    for (const { path, feed } of pages) {
      for (const host of [MAIN_SITE.domain, REGIONAL.domain]) {
        const html = (await request(t.url).get(path).set('Host', host)).text;
        const links = [...html.matchAll(/<link rel="alternate" type="application\/rss\+xml" title="[^"]+" href="([^"]+)">/g)].map((m) => m[1]!);
        expect([path, links.length]).toEqual([path, 1]);
        if (feed) expect(links[0]).toBe(feed);
        const answer = await request(t.url).get(links[0]!).set('Host', host);
        expect([links[0], answer.status]).toEqual([links[0], 200]);
        expect(validXml(answer.text).rss).toBeDefined();
      }
    }
  });

  it.each(['/rss/abc.xml', '/rss/0.xml', '/rss/99999999.xml', '/rss/12'])('answers %s with 404', async (path) => {
    expect((await request(t.url).get(path)).status).toBe(404);
  });
});
