/** The gzip arithmetic under precompressed pages, checked against zlib itself. */
import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import {
  crcLinear,
  crcMultiply,
  crcShift,
  FINAL_EMPTY_BLOCK,
  gapChecksums,
  GZIP_HEADER,
  MAX_STORED,
  splicedCrc,
  storedBlockHeader,
} from '../../../server/cache/gzip-splice';

describe('CRC-32 arithmetic', () => {
  it.each([0, 1, 3, 24, 1000, 65_535, 65_536, 1_000_003])('shifts a CRC past %i appended bytes (crc32_combine)', (lengthB) => {
    const a = randomBytes(777);
    const b = randomBytes(lengthB);
    expect((crcMultiply(crcShift(b.length), crc32(a)) ^ crc32(b)) >>> 0).toBe(crc32(Buffer.concat([a, b])));
  });

  it('takes the linear part of a CRC: L(a ⊕ b) = L(a) ⊕ L(b)', () => {
    const a = randomBytes(24);
    const b = randomBytes(24);
    const xor = Buffer.from(a.map((byte, index) => byte ^ b[index]!));
    expect(crcLinear(xor)).toBe((crcLinear(a) ^ crcLinear(b)) >>> 0);
  });

  it.each([
    [[0], 24],
    [[10], 24],
    [[0, 0], 24],
    [[5, 0, 70_000, 1, 0, 300], 24],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23], 24],
    [[100, 200], 1],
  ])('gives the CRC of pieces %j with any fill of %i bytes in every gap', (lengths, gapLength) => {
    const pieces = lengths.map((length) => randomBytes(length));
    const { zeroCrc, gapWeights } = gapChecksums(pieces, gapLength);
    for (let round = 0; round < 20; round++) {
      const fill = randomBytes(gapLength);
      const whole = Buffer.concat(pieces.flatMap((piece, index) => (index > 0 ? [fill, piece] : [piece])));
      expect(splicedCrc(zeroCrc, gapWeights, fill)).toBe(crc32(whole));
    }
  });
});

/** CRC-32 and length, little-endian: what ends a gzip member. */
function trailer(crc: number, length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32LE(crc >>> 0, 0);
  out.writeUInt32LE(length >>> 0, 4);
  return out;
}

describe('storedBlockHeader', () => {
  it.each([0, 1, 24, 1000, MAX_STORED])('carries %i bytes after it unchanged through inflate', (length) => {
    const data = randomBytes(length);
    const stream = Buffer.concat([storedBlockHeader(length), data, FINAL_EMPTY_BLOCK]);
    expect(inflateRawSync(stream).equals(data)).toBe(true);
  });

  it('makes a whole gzip member with the header and trailer', () => {
    const data = Buffer.from('青年新闻网 nonce', 'utf8');
    const member = Buffer.concat([GZIP_HEADER, storedBlockHeader(data.length), data, FINAL_EMPTY_BLOCK, trailer(crc32(data), data.length)]);
    expect(gunzipSync(member).toString('utf8')).toBe('青年新闻网 nonce');
  });

  it('a wrong trailer is refused by gunzip (the check that makes the CRC matter)', () => {
    const data = Buffer.from('abc');
    const member = Buffer.concat([GZIP_HEADER, storedBlockHeader(data.length), data, FINAL_EMPTY_BLOCK, trailer(crc32(data) ^ 1, data.length)]);
    expect(() => gunzipSync(member)).toThrow();
  });
});
