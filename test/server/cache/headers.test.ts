/** Headers for a CDN in front (Cache-Control, Surrogate-Key) and negative caching of the CMS's 'not found'. */
import request from 'supertest';
import { sharedCacheControl, surrogateKey } from '../../../server/cache/headers';
import { PAGE_POLICY } from '../../../server/cache/policy';
import { edgeTagsOf, ITEMS_LEFT_OUT_TAG, MAX_SURROGATE_KEY_BYTES } from '../../../server/cache/tags';
import { HOME_CATID, HOT_NEWS_ID } from '../../../shared/constants';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { signIn, TEST_APP_ID } from '../../support/sign-in';
import { firstHomeArticle, homeListEntry } from '../../support/upstream-data';
import { deleteKeys } from './redis-helpers';

describe('CDN headers', () => {
  it('give shared caches the whole TTL (the age goes in Age) and the stale windows', () => {
    expect(sharedCacheControl({ ttl: 120, grace: 1200, staleIfError: 86400 })).toBe(
      'public, max-age=0, s-maxage=120, stale-while-revalidate=1200, stale-if-error=86400',
    );
    expect(sharedCacheControl({ ttl: 30, grace: 0, staleIfError: 0 })).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=0, stale-if-error=0');
  });

  it('list valid tags once, sorted, and nothing that could break the header', () => {
    expect(surrogateKey(['site:0', 'article:5', 'site:0', 'bad tag', 'x\r\ny'])).toBe('article:5 site:0');
    expect(surrogateKey([])).toBeUndefined();
  });

  it('stay within MAX_SURROGATE_KEY_BYTES whatever a page shows, keeping every list key and as many item keys as fit', () => {
    const lists = ['site:3', 'page:home', 'cat:2728', 'cat:2729', 'headline', 'data:list', 'grey', 'menu'];
    for (const count of [0, 10, 100, 1000, 20_000]) {
      const items = Array.from({ length: count }, (_, index) => [`article:${100_000 + index}`, `video:${index}`][index % 2]!);
      const header = surrogateKey([...items, ...lists])!;
      expect(Buffer.byteLength(header)).toBeLessThanOrEqual(MAX_SURROGATE_KEY_BYTES);
      const keys = header.split(' ');
      expect(keys).toEqual(expect.arrayContaining(lists));
      expect(keys).toEqual([...keys].sort());
      const fitsWhole = [...items, ...lists].join(' ').length <= MAX_SURROGATE_KEY_BYTES;
      if (fitsWhole) expect(keys).toHaveLength(items.length + lists.length);
      else expect(keys.length).toBeGreaterThan(MAX_SURROGATE_KEY_BYTES / 20);
      // A page that could not name every item says so, and only then: an item's purge reaches it at the edge.
      expect(keys.includes(ITEMS_LEFT_OUT_TAG)).toBe(!fitsWhole);
    }
  });
});

describe('edge tags of a purge', () => {
  it('add the left-out key to a purge of any item, and only of an item', () => {
    for (const item of ['article:1', 'video:2', 'live:3', 'topic:4', 'boutique:5']) {
      expect(edgeTagsOf(['grey', item])).toEqual(['grey', item, ITEMS_LEFT_OUT_TAG]);
    }
    expect(edgeTagsOf(['grey', 'cat:2728', 'site:3'])).toEqual(['grey', 'cat:2728', 'site:3']);
    expect(edgeTagsOf([])).toEqual([]);
  });
});

describeWithRedis()('headers and negative caching on a live portal', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ redisUrl: testRedisUrl(), env: { WECHAT_APP_ID: TEST_APP_ID } });
  });
  afterEach(() => t.upstream.api.control.reset());
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), t.cachePrefix);
    await t.close();
  });

  it('sends s-maxage, stale windows and the page tags on a HIT, private no-store when signed in', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const path = `/detail/${raw.catid}/${raw.id}`;
    // The hot news block is still loading when the shell (and the headers) go out.
    t.upstream.api.control.setLatency([{ path: `/list/${HOT_NEWS_ID}/`, ms: 500 }]);
    const miss = await request(t.url).get(path);
    const hit = await request(t.url).get(path);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['cache-control']).toMatch(
      new RegExp(`^public, max-age=0, s-maxage=\\d+, stale-while-revalidate=${PAGE_POLICY.detail.grace}, stale-if-error=\\d+$`),
    );
    const keys = String(hit.headers['surrogate-key']).split(' ');
    expect(keys).toEqual(expect.arrayContaining([`article:${raw.id}`, `cat:${raw.catid}`, 'site:0', 'page:detail', 'data:article']));
    // The streamed MISS went out while its sidebar blocks were still loading: whether the portal would store it
    // was not known yet, so no shared cache may keep it.
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(miss.headers['cache-control']).toBe('private, no-store');
    expect(miss.headers['surrogate-key']).toBeUndefined();
    const signedIn = await request(t.url)
      .get(path)
      .set('Cookie', `portal_session=${await signIn(t, '头部读者')}`);
    expect(signedIn.headers['cache-control']).toBe('private, no-store');
    expect(signedIn.headers['surrogate-key']).toBeUndefined();
  });

  it("never shares a streamed MISS (it runs by its reader's nonce); a crawler's whole render is stored first and shared at once", async () => {
    const about = await request(t.url).get('/about');
    expect(about.headers['x-cache']).toBe('MISS');
    expect(about.headers['cache-control']).toBe('private, no-store');
    expect(about.headers['content-security-policy']).toMatch(/'nonce-/);
    const hit = await request(t.url).get('/about');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
    expect(hit.headers['surrogate-key']).toContain('page:');
    expect(hit.headers['content-security-policy']).not.toMatch(/'nonce-/);
    // A crawler waits for every block anyway: its render is stored, then sent as stored, the bytes later readers get.
    const other = await homeListEntry(t.upstream.url, 2);
    const path = `/detail/${other.catid}/${other.id}`;
    const crawled = await request(t.url).get(path).set('User-Agent', 'Googlebot/2.1 (+http://www.google.com/bot.html)');
    expect(crawled.headers['x-cache']).toBe('MISS');
    expect(crawled.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
    expect(crawled.headers['surrogate-key']).toContain('page:');
    expect(crawled.headers['content-security-policy']).toMatch(/script-src (?:'sha256-[^']+' )+'strict-dynamic'/);
    expect(crawled.text).not.toContain('nonce=');
    const reader = await request(t.url).get(path).set('User-Agent', 'Mozilla/5.0 (Windows NT 10.0) Chrome/120.0');
    expect(reader.headers['x-cache']).toBe('HIT');
    expect([reader.headers.etag, reader.text]).toEqual([crawled.headers.etag, crawled.text]);
  });

  it("a crawler's page that is not stored (a missing article) is sent as rendered: its nonce, private", async () => {
    const missing = await request(t.url).get('/detail/2728/987655').set('User-Agent', 'Googlebot/2.1 (+http://www.google.com/bot.html)');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('private, no-store');
    const nonce = /'nonce-([^']+)'/.exec(String(missing.headers['content-security-policy']))?.[1];
    expect(missing.text).toContain(`<script nonce="${nonce}"`);
  });

  it("caches the CMS's 'not found' briefly: a second request for a dead id costs no upstream call", async () => {
    t.upstream.api.control.reset();
    const first = await request(t.url).get('/detail/2728/987654');
    const second = await request(t.url).get('/detail/2728/987654');
    for (const res of [first, second]) {
      expect(res.status).toBe(404);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    const calls = Object.entries(t.upstream.api.control.stats().byPath).filter(([path]) => path.startsWith('GET /show/2728-987654'));
    expect(calls).toEqual([['GET /show/2728-987654.html?', 1]]);
  });
});
