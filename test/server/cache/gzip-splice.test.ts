/** The gzip arithmetic under precompressed pages, checked against zlib itself. */
import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import { crcCombine, crcShift, FINAL_EMPTY_BLOCK, GZIP_HEADER, gzipTrailer, storedBlocks } from '../../../server/cache/gzip-splice';

describe('crcCombine', () => {
  it.each([0, 1, 3, 24, 1000, 65_535, 65_536, 1_000_003])('gives the CRC-32 of A‖B for B of %i bytes', (lengthB) => {
    const a = randomBytes(777);
    const b = randomBytes(lengthB);
    expect(crcCombine(crc32(a), crc32(b), crcShift(b.length))).toBe(crc32(Buffer.concat([a, b])));
  });

  it('chains over many pieces, empty ones included', () => {
    const pieces = [0, 5, 0, 24, 4096, 1, 0, 70_000].map((length) => randomBytes(length));
    let crc = 0;
    for (const piece of pieces) crc = crcCombine(crc, crc32(piece), crcShift(piece.length));
    expect(crc).toBe(crc32(Buffer.concat(pieces)));
  });
});

describe('storedBlocks', () => {
  it.each([0, 1, 24, 65_535, 65_536, 200_000])('carries %i bytes unchanged through inflate', (length) => {
    const data = randomBytes(length);
    const stream = Buffer.concat([storedBlocks(data), FINAL_EMPTY_BLOCK]);
    expect(inflateRawSync(stream).equals(data)).toBe(true);
  });

  it('makes a whole gzip member with the header and trailer', () => {
    const data = Buffer.from('青年新闻网 nonce', 'utf8');
    const member = Buffer.concat([GZIP_HEADER, storedBlocks(data), FINAL_EMPTY_BLOCK, gzipTrailer(crc32(data), data.length)]);
    expect(gunzipSync(member).toString('utf8')).toBe('青年新闻网 nonce');
  });

  it('a wrong trailer is refused by gunzip (the check that makes the CRC matter)', () => {
    const data = Buffer.from('abc');
    const member = Buffer.concat([GZIP_HEADER, storedBlocks(data), FINAL_EMPTY_BLOCK, gzipTrailer(crc32(data) ^ 1, data.length)]);
    expect(() => gunzipSync(member)).toThrow();
  });
});
