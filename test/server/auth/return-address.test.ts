import { safeReturnAddress } from '../../../server/auth/return-address';

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
});
