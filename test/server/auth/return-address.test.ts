import { safeReturnAddress } from '../../../server/auth/return-address';

const PORTAL = 'https://www.qnnews.cn';

/** Every spelling a URL parser may turn into a path that starts with two slashes (or a backslash). */
function dotSegmentSpellings(): string[] {
  const leads = ['/', '/.', '/./', '/a/..', '/a/../', '/%2e', '/%2E', '/.%2e', '/x/%2e%2e', '/x/%2E%2E', '/a/b/../..', '/x/.%2E', '/x/%2e.'];
  const separators = ['/', '//', '/\\', '\\', '\\/', '/./', '/%2e/'];
  const targets = ['evil.example', 'evil.example/phish', 'evil.example:443/x', '@evil.example'];
  return leads.flatMap((lead) => separators.flatMap((separator) => targets.map((target) => `${lead}${separator}${target}`)));
}

describe('safeReturnAddress', () => {
  it.each([
    ['/detail/2728/33727', '/detail/2728/33727'],
    ['/V1/2728?page=2#top', '/V1/2728?page=2#top'],
    ['/?code=abc&state=def&page=3', '/?page=3'],
    ['https://www.qnnews.cn/about', 'https://www.qnnews.cn/about'],
    ['https://bj.qnnews.cn/detail/1/2?code=x', 'https://bj.qnnews.cn/detail/1/2'],
  ])('keeps %s', (raw, expected) => {
    expect(safeReturnAddress(raw)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    'https:evil.example',
    'https:/evil.example',
    'http:www.qnnews.cn',
    'https://evil.example/',
    'https://www.qnnews.cn.evil.example/',
    'https://evil.example#.qnnews.cn',
    'https://www.qnnews.cn@evil.example/',
    'https://user:pw@www.qnnews.cn/',
    'https://www.qnnews.cn:8443/',
    'javascript:alert(1)',
    'data:text/html,hi',
    '%2F%2Fevil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%2fevil.example',
    '%5C%5Cevil.example',
    '/\tevil',
    '/ /evil.example',
    '/\n/evil.example',
    'evil.example',
    '',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (raw) => {
    expect(safeReturnAddress(raw)).toBe('/');
  });

  it('refuses what is not a string', () => {
    expect(safeReturnAddress(undefined)).toBe('/');
    expect(safeReturnAddress(['/a', '/b'])).toBe('/');
  });

  it.each([['/.//evil.example/phish'], ['/a/..//evil.example'], ['/%2e//evil.example'], ['/x/%2e%2e//evil.example']])(
    'never sends %s as an address a browser reads as another host',
    (raw) => {
      const sent = safeReturnAddress(raw);
      expect(sent.startsWith('//')).toBe(false);
      expect(new URL(sent, PORTAL).host).toBe('www.qnnews.cn');
    },
  );

  it('whatever the spelling, the address sent stays on the portal and is a canonical path', () => {
    const spellings = dotSegmentSpellings();
    expect(spellings.length).toBeGreaterThan(300);
    for (const raw of spellings) {
      const sent = safeReturnAddress(raw);
      const where = new URL(sent, PORTAL);
      if (where.host !== 'www.qnnews.cn' || /^\/[/\\]/.test(sent)) throw new Error(`${JSON.stringify(raw)} → ${sent}`);
    }
  });

  it('what it returns is returned unchanged when checked again (the callback checks it on the way out)', () => {
    for (const raw of [...dotSegmentSpellings(), '/detail/2728/33727?page=2#top', 'https://bj.qnnews.cn/about']) {
      const once = safeReturnAddress(raw);
      expect(safeReturnAddress(once)).toBe(once);
    }
  });
});
