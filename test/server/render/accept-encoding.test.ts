import { acceptsGzip } from '../../../server/render/accept-encoding';

describe('acceptsGzip', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br', false],
    ['deflate, br', false],
    ['gzip', true],
    ['GZIP', true],
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['br, gzip', true],
    ['x-gzip', true],
    ['gzip;q=0', false],
    ['gzip ; q=0.000', false],
    ['*', true],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['br, *;q=0.5', true],
    ['gzip;q=abc', false],
  ])('%j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
    // Asked again: the remembered answer is the same.
    expect(acceptsGzip(header)).toBe(expected);
  });
});
