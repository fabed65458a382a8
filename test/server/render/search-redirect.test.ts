import request from 'supertest';
import { encodeKeyword } from '../../../shared/search';
import { targetOf } from '../../../server/edge/page-request';
import { searchFormRedirect } from '../../../server/edge/search-redirect';
import { startTestPortal, type TestPortal } from '../../support/portal';

const at = (target: string) => {
  const { pathname, params } = targetOf(target);
  return [pathname, params] as const;
};

describe('search form redirect', () => {
  it('turns /search?q=&type= into /search/{base64url}/{type}', () => {
    expect(searchFormRedirect(...at('/search?q=%E9%9D%92%E5%B9%B4&type=2'))).toBe(`/search/${encodeKeyword('青年')}/2`);
    expect(searchFormRedirect(...at('/search?q=a%2Bb'))).toBe(`/search/${encodeKeyword('a+b')}/1`);
    expect(searchFormRedirect(...at('/search?q=+++'))).toBe('/search');
    expect(searchFormRedirect(...at('/search'))).toBeNull();
    expect(searchFormRedirect(...at('/detail?q=1'))).toBeNull();
  });

  describe('through the portal', () => {
    let t: TestPortal;
    beforeAll(async () => {
      t = await startTestPortal();
    });
    afterAll(async () => t?.close());

    it('answers 302 with the path form', async () => {
      const response = await request(t.url).get('/search?q=%E9%9D%92%E5%B9%B4&type=2');
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe(`/search/${encodeKeyword('青年')}/2`);
    });
  });
});
