/**
 * gzip members assembled from pieces compressed ahead of time (RFC 1951/1952). A cached page is deflated once,
 * piece by piece, with every piece ending on a byte boundary and no final block; a response strings the pieces
 * together with its own nonce between them as stored (uncompressed) blocks, closes the stream with an empty
 * final block and adds the CRC-32 and length of the text it now holds. The CRC is combined from the pieces'
 * CRCs (zlib's crc32_combine), so a response never reads the page's bytes to checksum them.
 */
/** Magic, deflate, no flags, no mtime, no extra flags, OS unknown. */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** BFINAL=1, BTYPE=01 (fixed Huffman), end-of-block: the stream ends here. */
export const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/** The longest stored block (its length field is 16 bits). */
const MAX_STORED = 0xffff;

/** `data` as one or more stored blocks, none of them final; the result is byte-aligned like its input. */
export function storedBlocks(data: Uint8Array): Buffer {
  const count = Math.max(1, Math.ceil(data.length / MAX_STORED));
  const out = Buffer.allocUnsafe(data.length + 5 * count);
  let at = 0;
  for (let start = 0; start < data.length || at === 0; start += MAX_STORED) {
    const length = Math.min(MAX_STORED, data.length - start);
    out[at] = 0x00;
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    out.set(data.subarray(start, start + length), at + 5);
    at += 5 + length;
  }
  return out;
}

export function gzipTrailer(crc: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(8);
  out.writeUInt32LE(crc >>> 0, 0);
  out.writeUInt32LE(length >>> 0, 4);
  return out;
}

// ---- CRC-32 arithmetic (polynomials over GF(2), reflected), after zlib's crc32.c ----

const POLY = 0xedb88320;

/** a·b modulo the CRC polynomial. `a` must not be 0 (shift operators never are). */
function multModP(a: number, b: number): number {
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
  for (let k = 1; k < 32; k++) table[k] = p = multModP(p, p);
  return table;
})();

/**
 * The operator that appends `length` bytes to a CRC: x^(8·length) mod p. Compute it once per piece; combining
 * with it is then one multiplication.
 */
export function crcShift(length: number): number {
  let p = 0x80000000; // x^0
  let k = 3; // bytes → bits
  for (let n = length; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
  }
  return p;
}

/** CRC-32 of A‖B from crc(A), crc(B) and crcShift(length of B). */
export function crcCombine(crcA: number, crcB: number, shiftB: number): number {
  return (multModP(shiftB, crcA) ^ crcB) >>> 0;
}
