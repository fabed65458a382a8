import { acceptsGzip, canonicalAcceptEncoding, pageFormFor } from '../../../server/edge/accept-encoding';

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
    // Case-insensitive throughout: codings and the q parameter (RFC 9110 §8.4.1, §12.4.2).
    ['gzip;Q=0', false],
    ['GZIP;Q=0.000', false],
    ['Gzip;Q=0.5', true],
    ['X-GZIP', true],
    ['deflate, X-Gzip;Q=0', false],
    ['gzip;Q=0, *;Q=1', false],
    ['*;Q=0', false],
  ])('%j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
    // Asked again: the remembered answer is the same.
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('pageFormFor: the stored form a cached page is sent in', () => {
  it.each<[string | undefined, string]>([
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    // A browser lists gzip first: between equal q the server's order (br, gzip, identity) decides.
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=1, GZIP;Q=0.1', 'br'],
    ['BR;Q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['gzip;Q=0', 'identity'],
    // Nothing acceptable: identity, which every client reads (RFC 9110 §12.5.3), not a 406.
    ['identity;q=0', 'identity'],
    ['*;q=0', 'identity'],
    ['br;q=abc', 'identity'],
  ])('%j → %s', (header, expected) => {
    expect(pageFormFor(header)).toBe(expected);
    expect(pageFormFor(header)).toBe(expected);
  });
});

describe('canonicalAcceptEncoding', () => {
  it.each<[string, string]>([
    ['gzip, deflate, br', 'gzip, deflate, br'],
    ['GZIP;Q=0, Identity', 'gzip;q=0, identity'],
    ['x-gzip', 'gzip'],
    ['br, X-GZIP;Q=0.5', 'br, gzip;q=0.5'],
    ['x-gzipped', 'x-gzipped'],
  ])('%j → %j', (header, expected) => {
    expect(canonicalAcceptEncoding(header)).toBe(expected);
  });
});
