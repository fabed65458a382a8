/**
 * gzip members assembled from pieces compressed ahead of time (RFC 1951/1952). A cached page is deflated once,
 * piece by piece, with every piece ending on a byte boundary and no final block; a response strings the pieces
 * together with its own nonce between them as stored (uncompressed) blocks, closes the stream with an empty
 * final block and adds the CRC-32 and length of the text it now holds.
 *
 * The CRC is not computed over the page per response. CRC-32 is affine in the message bits: for messages of
 * one length, crc(M) = crc(M₀) ⊕ L(M ⊕ M₀) with L linear. Taking M₀ as the page with zero bytes where the
 * nonces go, L(M ⊕ M₀) = Σᵢ x^(8·dᵢ)·L(nonce) mod P, dᵢ being the bytes after nonce i. So a page keeps crc(M₀)
 * and W = Σᵢ x^(8·dᵢ) mod P, and a response's CRC is crc(M₀) ⊕ W·L(nonce): one multiplication (zlib's
 * multmodp), whatever the page's size or number of nonces.
 */
import { crc32 } from 'node:zlib';

/** Magic, deflate, no flags, no mtime, no extra flags, OS unknown. */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** BFINAL=1, BTYPE=01 (fixed Huffman), end-of-block: the stream ends here. */
export const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/** The longest stored block (its length field is 16 bits). */
export const MAX_STORED = 0xffff;

/** The header of a stored block of `length` (≤ MAX_STORED) bytes, not final: its bytes follow it as they are. */
export function storedBlockHeader(length: number): Buffer {
  const out = Buffer.allocUnsafe(5);
  out[0] = 0x00;
  out.writeUInt16LE(length, 1);
  out.writeUInt16LE(~length & 0xffff, 3);
  return out;
}

// ---- CRC-32 arithmetic (polynomials over GF(2), reflected), after zlib's crc32.c ----

const POLY = 0xedb88320;

/** a·b modulo the CRC polynomial (zlib's multmodp). */
export function crcMultiply(a: number, b: number): number {
  if (a === 0) return 0;
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) mod p. */
const X2N = (() => {
  const table = new Uint32Array(32);
  let p = 1 << 30; // x^1
  table[0] = p;
  for (let k = 1; k < 32; k++) table[k] = p = crcMultiply(p, p);
  return table;
})();

/** x^(8·length) mod P: appending `length` zero bytes, as an operator on a CRC's linear part. */
export function crcShift(length: number): number {
  let p = 0x80000000; // x^0
  let k = 3; // bytes → bits
  for (let n = length; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) p = crcMultiply(X2N[k & 31]!, p);
  }
  return p;
}

const zeroCrcs = new Map<number, number>();

/** L(data): the linear part of data's CRC-32, crc(data) ⊕ crc(as many zero bytes). */
export function crcLinear(data: Uint8Array): number {
  let zeros = zeroCrcs.get(data.length);
  if (zeros === undefined) {
    zeros = crc32(Buffer.alloc(data.length));
    zeroCrcs.set(data.length, zeros);
  }
  return (crc32(data) ^ zeros) >>> 0;
}

/**
 * What a page keeps to checksum any of its responses: crc(M₀) of the pieces with `gapLength` zero bytes
 * between them, and W = Σᵢ x^(8·dᵢ) over the gaps.
 */
export function gapChecksums(pieces: readonly Uint8Array[], gapLength: number): { zeroCrc: number; gapWeights: number } {
  const gap = Buffer.alloc(gapLength);
  let zeroCrc = 0;
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) zeroCrc = crc32(gap, zeroCrc);
    // Never an empty buffer: Node 20's crc32 answers 0 for some (those with no memory behind them).
    if (piece.length > 0) zeroCrc = crc32(piece, zeroCrc);
  }
  let gapWeights = 0;
  let after = 0;
  for (let index = pieces.length - 1; index > 0; index--) {
    after += pieces[index]!.length;
    gapWeights ^= crcShift(after);
    after += gapLength;
  }
  return { zeroCrc: zeroCrc >>> 0, gapWeights: gapWeights >>> 0 };
}

/** CRC-32 of the pieces with `fill` in every gap (fill as long as the gaps gapChecksums was given). */
export function splicedCrc(zeroCrc: number, gapWeights: number, fill: Uint8Array): number {
  return (zeroCrc ^ crcMultiply(gapWeights, crcLinear(fill))) >>> 0;
}
