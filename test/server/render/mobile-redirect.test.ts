/**
 * docs/product.md §2: article detail on a phone goes to the mobile site; desktop readers keep the cached page. A
 * client navigation's page data follows the same rule (test/browser/navigation.test.ts follows a link on a phone).
 */
import request from 'supertest';
import { HOME_CATID } from '../../../shared/constants';
import { isMobileUserAgent } from '../../../server/edge/classify';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { firstHomeArticle } from '../../support/upstream-data';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

describe('mobile redirect', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ env: { MOBILE_DETAIL_URL: 'https://m.qnnews.cn/pages/detail' } });
  });
  afterAll(async () => t.close());

  it('tells phones from tablets and desktops', () => {
    expect([IPHONE, ANDROID].map(isMobileUserAgent)).toEqual([true, true]);
    expect([IPAD, DESKTOP, undefined].map(isMobileUserAgent)).toEqual([false, false, false]);
  });

  it('redirects a phone to the mobile site with catid and id, even when the desktop page is cached', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const path = `/detail/${raw.catid}/${raw.id}`;
    await request(t.url).get(path).set('User-Agent', DESKTOP);
    const desktop = await request(t.url).get(path).set('User-Agent', DESKTOP);
    expect(desktop.status).toBe(200);
    expect(desktop.headers['x-cache']).toBe('HIT');
    expect(desktop.headers.vary).toMatch(/User-Agent/);
    for (const ua of [IPHONE, ANDROID]) {
      const phone = await request(t.url).get(path).set('User-Agent', ua);
      expect(phone.status).toBe(302);
      expect(phone.headers.location).toBe(`https://m.qnnews.cn/pages/detail?catid=${raw.catid}&id=${raw.id}`);
      expect(phone.headers.vary).toMatch(/User-Agent/);
      expect(phone.headers['cache-control']).toBe('private, no-store');
    }
    expect((await request(t.url).get(path).set('User-Agent', IPAD)).status).toBe(200);
    expect((await request(t.url).get('/').set('User-Agent', IPHONE)).status).toBe(200);
  });

  it("answers a phone's client navigation to an article with the same mobile address, as a document to load", async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const path = `/detail/${raw.catid}/${raw.id}`;
    const data = (ua: string, target = path) => request(t.url).get('/_data/page').query({ path: target }).set('User-Agent', ua);
    for (const ua of [IPHONE, ANDROID]) {
      const phone = await data(ua);
      expect(phone.status).toBe(200);
      expect(phone.body).toEqual({ kind: 'document', location: `https://m.qnnews.cn/pages/detail?catid=${raw.catid}&id=${raw.id}` });
      expect(phone.headers.vary).toMatch(/User-Agent/);
      expect(phone.headers['cache-control']).toBe('private, no-store');
      // Other pages are a phone's as well as a desktop's.
      expect((await data(ua, '/')).body.kind).toBe('page');
    }
    for (const ua of [IPAD, DESKTOP]) {
      const other = await data(ua);
      expect(other.body.kind).toBe('page');
      expect(other.body.page.page).toBe('detail');
      expect(other.headers.vary).toMatch(/User-Agent/);
    }
  });
});
