/**
 * One path per page for routes with free text in a segment (shared/routes.ts routeSpelling, docs/security.md): a
 * search keyword in any base64 spelling (standard, padded, URL-safe, padded URL-safe, around spaces) is one
 * page, spelt as the site's own links spell it; a word that is no keyword is no page; a tag page's title is
 * dropped, whatever it says. Generated, seeded variants, so a failure names a keyword that fails again.
 */
import { routeSpelling, routeTable } from '../../shared/routes';
import { decodeKeyword, encodeKeyword } from '../../shared/search-keyword';
import { seeded } from '../support/generated-paths';

const PIECES = ['青年', '新闻', '中国', 'a', 'Z', '0', ' ', '?', '>', '/', '+', '=', '😀', 'é', '<script>', '%', '&', '~', '中国青年报'];

function keywords(count: number, seed: number): string[] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => {
    let word = '';
    const length = 1 + Math.floor(random() * 6);
    for (let index = 0; index < length; index += 1) word += PIECES[Math.floor(random() * PIECES.length)];
    return word.trim() === '' ? '青年' : word;
  });
}

/** Every base64 spelling of a keyword's UTF-8 bytes, as a path segment would carry it. */
function spellingsOf(keyword: string): string[] {
  const standard = Buffer.from(keyword, 'utf8').toString('base64');
  const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_');
  const padded = Buffer.from(` ${keyword} `, 'utf8').toString('base64');
  return [...new Set([standard, standard.replace(/=+$/, ''), urlSafe, urlSafe.replace(/=+$/, ''), padded, padded.replace(/=+$/, '')])].map((spelling) =>
    spelling.replace(/\//g, '%2F'),
  );
}

describe('routeSpelling', () => {
  it.each(keywords(60, 27))('every base64 spelling of %j is one page, the one the site links to', (keyword) => {
    const canonical = `/search/${encodeKeyword(keyword.trim())}`;
    for (const type of ['1', '2']) {
      expect(routeSpelling(`${canonical}/${type}`)).toEqual({ kind: 'canonical' });
      for (const spelling of spellingsOf(keyword)) {
        const path = `/search/${spelling}/${type}`;
        const expected = path === `${canonical}/${type}` ? { kind: 'canonical' } : { kind: 'respelt', path: `${canonical}/${type}` };
        expect([path, routeSpelling(path)]).toEqual([path, expected]);
      }
    }
    // The type a word without one reads as is spelt out.
    expect(routeSpelling(canonical)).toEqual({ kind: 'respelt', path: `${canonical}/1` });
    expect(decodeKeyword(encodeKeyword(keyword.trim()))).toBe(keyword.trim());
  });

  it.each(['____', '_w', '__8', '%2F%2F%2F%2F', 'wA', 'gICA', '7aCA'])('a word that is no keyword (%s) is no page', (word) => {
    expect(routeSpelling(`/search/${word}/1`)).toEqual({ kind: 'not-a-page' });
  });

  it.each(['法治', 'anything', '%3Cscript%3E', 'a'.repeat(200), '%E4%B8%AD%E5%9B%BD', '..a', '-'])(
    'a tag page with the title %j is the tag page without it',
    (title) => {
      expect(routeSpelling(`/tagDetail/58/${title}`)).toEqual({ kind: 'respelt', path: '/tagDetail/58' });
      expect(routeSpelling('/tagDetail/58')).toEqual({ kind: 'canonical' });
    },
  );

  it('leaves every other route of the table as it is', () => {
    const sample: Record<string, string> = { id: '12', catid: '2728', menu: 'xinwen', sub: 'guonei' };
    for (const route of routeTable()) {
      if (route.path.includes(':word') || route.path.includes(':title')) continue;
      const path = route.path.replace(/\/:(\w+)\??/g, (_match, name: string) => `/${sample[name] ?? '1'}`);
      expect([route.path, routeSpelling(path)]).toEqual([route.path, { kind: 'canonical' }]);
    }
  });
});
