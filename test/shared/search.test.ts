import { SEARCH_HISTORY_MAX } from '../../shared/constants';
import { addToHistory, decodeKeyword, encodeKeyword, parseHistory, parseSearchType, searchPath } from '../../shared/search';

describe('search keyword in the URL', () => {
  it('is UTF-8 then URL-safe base64 without padding', () => {
    expect(encodeKeyword('青年')).toBe(Buffer.from('青年', 'utf8').toString('base64url'));
    expect(encodeKeyword('a')).toBe('YQ');
    expect(encodeKeyword('??>')).toBe('Pz8-');
  });

  it.each(['青年新闻', 'a', 'ab', 'abc', '😀 emoji + 空格/斜杠?', 'x\u2028y'])('round-trips %j', (word) => {
    expect(decodeKeyword(encodeKeyword(word))).toBe(word);
  });

  it('also reads standard base64 with padding', () => {
    expect(decodeKeyword(Buffer.from('??>新', 'utf8').toString('base64'))).toBe('??>新');
  });

  it('rejects what is not base64 of UTF-8', () => {
    expect(decodeKeyword('a')).toBeNull();
    expect(decodeKeyword('ab$c')).toBeNull();
    expect(decodeKeyword(Buffer.from([0xff, 0xfe]).toString('base64url'))).toBeNull();
  });

  it('builds /search/{word}/{type} and never an empty search', () => {
    expect(searchPath(' 青年 ', 2)).toBe(`/search/${encodeKeyword('青年')}/2`);
    expect(searchPath('   ', 1)).toBeNull();
    expect(parseSearchType('2')).toBe(2);
    expect(parseSearchType('9')).toBe(1);
    expect(parseSearchType(null)).toBe(1);
  });
});

describe('search history', () => {
  it('puts the newest first and moves a duplicate to the front', () => {
    expect(addToHistory(['a', 'b', 'c'], 'b')).toEqual(['b', 'a', 'c']);
    expect(addToHistory(['a'], 'z')).toEqual(['z', 'a']);
    expect(addToHistory(['a'], '  ')).toEqual(['a']);
  });

  it('is cut at 20', () => {
    const full = Array.from({ length: SEARCH_HISTORY_MAX }, (_, i) => `k${i}`);
    const next = addToHistory(full, 'new');
    expect(next).toHaveLength(20);
    expect(next[0]).toBe('new');
    expect(next).not.toContain('k19');
  });

  it('reads stored values defensively', () => {
    expect(parseHistory(null)).toEqual([]);
    expect(parseHistory('{bad')).toEqual([]);
    expect(parseHistory('{"a":1}')).toEqual([]);
    expect(parseHistory('["a", 3, "", "b"]')).toEqual(['a', 'b']);
  });
});
