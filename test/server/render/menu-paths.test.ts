/**
 * The menu forms of a path (`/{menu}/{sub}/V1/{id}`, `/{menu}/V1/{id}`, the same for V2 and topicDetail) have one
 * prefix per page (server/pages/helpers.ts menuPathOf, docs/security.md "One path per page"): the menu's own
 * link answers; every prefix a reader could write instead (another directory, another item's, a made-up one, the
 * menu alone, a page the menu does not have) is a 301 to the page's one path, query kept, and no cache entry.
 */
import request from 'supertest';
import { MAIN_DOMAIN } from '../../../shared/sites';
import { startTestPortal, type TestPortal } from '../../support/portal';

const MENU_FORM = /href="\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\/(V1|V2|topicDetail)\/(\d+)"/g;

describe('menu prefixes of a path', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(() => t.close());

  const get = (path: string) => request(t.url).get(path).set('Host', MAIN_DOMAIN).redirects(0);

  it('answers each menu link, and sends every other prefix for its page to it', async () => {
    const home = await get('/');
    const links = [...new Map([...home.text.matchAll(MENU_FORM)].map((m) => [m[0], { menu: m[1]!, sub: m[2]!, segment: m[3]!, id: m[4]! }])).values()];
    expect(links.length).toBeGreaterThanOrEqual(3);
    const subs = [...new Set(links.map((link) => link.sub))];
    for (const link of links) {
      const path = `/${link.menu}/${link.sub}/${link.segment}/${link.id}`;
      expect([path, (await get(path)).status]).toEqual([path, 200]);
      const otherSub = subs.find((sub) => sub !== link.sub) ?? 'other';
      const spellings = [
        `/${link.menu}/${link.segment}/${link.id}`,
        `/nope/${link.sub}/${link.segment}/${link.id}`,
        `/${link.menu}/nope/${link.segment}/${link.id}`,
        `/${link.sub}/${link.menu}/${link.segment}/${link.id}`,
        `/${link.menu}/${otherSub}/${link.segment}/${link.id}`,
        `/nope/${link.segment}/${link.id}`,
        `/${'a'.repeat(64)}/${link.segment}/${link.id}`,
      ];
      for (const other of spellings) {
        const answer = await get(`${other}?page=2&utm_source=x`);
        // The query the page reads is kept (a list's page past the first; a topic reads none), nothing else.
        const query = link.segment === 'topicDetail' ? '' : '?page=2';
        expect([other, answer.status, answer.headers.location]).toEqual([other, 301, `${path}${query}`]);
      }
    }
    // A page the menu does not have under any prefix: its one path has none.
    const bare = links.find((link) => link.segment === 'V1');
    if (bare) {
      const answer = await get(`/${bare.menu}/${bare.sub}/V1/2147483647`);
      expect([answer.status, answer.headers.location]).toEqual([301, '/V1/2147483647']);
    }
    const keys = await t.portal.store.keysMatching(`${t.cachePrefix}:*`);
    expect(keys.filter((key) => /\/(nope|a{64})\//.test(key))).toEqual([]);
  });
});
