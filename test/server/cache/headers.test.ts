/** Headers for a CDN in front (Cache-Control, Surrogate-Key) and negative caching of the CMS's 'not found'. */
import request from 'supertest';
import { sharedCacheControl, surrogateKey } from '../../../server/cache/headers';
import { PAGE_POLICY } from '../../../server/cache/policy';
import { HOME_CATID } from '../../../shared/constants';
import { describeWithRedis } from '../../support/requirements';
import { redisPortalSuite } from '../../support/redis-portal';
import { signIn, TEST_APP_ID } from '../../support/sign-in';
import { firstHomeArticle } from '../../support/upstream-data';

describe('CDN headers', () => {
  it('give shared caches the remaining freshness and the stale windows', () => {
    expect(sharedCacheControl({ ttl: 120, grace: 1200, staleIfError: 86400 }, 20)).toBe(
      'public, max-age=0, s-maxage=100, stale-while-revalidate=1200, stale-if-error=86400',
    );
    expect(sharedCacheControl({ ttl: 120, grace: 0, staleIfError: 0 }, 500)).toContain('s-maxage=0,');
  });

  it('list valid tags once, sorted, and nothing that could break the header', () => {
    expect(surrogateKey(['site:0', 'article:5', 'site:0', 'bad tag', 'x\r\ny'])).toBe('article:5 site:0');
    expect(surrogateKey([])).toBeUndefined();
  });
});

describeWithRedis()('headers and negative caching on a live portal', () => {
  const suite = redisPortalSuite({ env: { WECHAT_APP_ID: TEST_APP_ID } });

  it('sends s-maxage, stale windows and the page tags on MISS and HIT, private no-store when signed in', async () => {
    const raw = await firstHomeArticle(suite.portal.upstream.url, HOME_CATID);
    const path = `/detail/${raw.catid}/${raw.id}`;
    const miss = await request(suite.portal.url).get(path);
    const hit = await request(suite.portal.url).get(path);
    expect(hit.headers['x-cache']).toBe('HIT');
    for (const res of [miss, hit]) {
      expect(res.headers['cache-control']).toMatch(
        new RegExp(`^public, max-age=0, s-maxage=\\d+, stale-while-revalidate=${PAGE_POLICY.detail.grace}, stale-if-error=\\d+$`),
      );
      const keys = String(res.headers['surrogate-key']).split(' ');
      expect(keys).toEqual(expect.arrayContaining([`article:${raw.id}`, `cat:${raw.catid}`, 'site:0', 'page:detail', 'data:article']));
    }
    const signedIn = await request(suite.portal.url).get(path).set('Cookie', `portal_session=${await signIn(suite.portal, '头部读者')}`);
    expect(signedIn.headers['cache-control']).toBe('private, no-store');
    expect(signedIn.headers['surrogate-key']).toBeUndefined();
  });

  it("caches the CMS's 'not found' briefly: a second request for a dead id costs no upstream call", async () => {
    suite.portal.upstream.api.control.reset();
    const first = await request(suite.portal.url).get('/detail/2728/987654');
    const second = await request(suite.portal.url).get('/detail/2728/987654');
    for (const res of [first, second]) {
      expect(res.status).toBe(404);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    const calls = Object.entries(suite.portal.upstream.api.control.stats().byPath).filter(([path]) => path.startsWith('GET /show/2728-987654'));
    expect(calls).toEqual([['GET /show/2728-987654.html?', 1]]);
  });
});
