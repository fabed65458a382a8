/**
 * QR codes as SVG paths, made with the `qrcode` library's encoder, so a code renders on the server (readable
 * before script) and the browser alike without canvas or image files.
 */
import QRCode from 'qrcode';

export interface QrMatrix {
  /** Modules per side. */
  size: number;
  /** One `M x y h1 v1 h-1z` square per dark module. */
  path: string;
}

/**
 * Every page draws the same chrome codes (media matrix, mobile site); encoding them once per process instead of
 * once per render keeps the server's render cost flat. Bounded, since share codes vary by page.
 */
const memo = new Map<string, QrMatrix>();
const MEMO_MAX = 64;

export function qrMatrix(text: string): QrMatrix {
  const known = memo.get(text);
  if (known) return known;
  const matrix = encode(text);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value as string);
  memo.set(text, matrix);
  return matrix;
}

function encode(text: string): QrMatrix {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let y = 0; y < modules.size; y += 1) {
    for (let x = 0; x < modules.size; x += 1) if (modules.get(y, x)) path += `M${x} ${y}h1v1h-1z`;
  }
  return { size: modules.size, path };
}
