/**
 * QR codes as SVG, made with the `qrcode` library's encoder and served as immutable images at
 * `/assets/qr/{text as base64url}.svg` (server/qr-images.ts): the HTML carries an <img> instead of 3 KB of path
 * per code. Server-only: the browser names the image (shared/qr-image-path.ts) and never needs the encoder.
 */
import QRCode from 'qrcode';

export interface QrMatrix {
  /** Modules per side. */
  size: number;
  /** One `M x y h{n} v1 h-{n} z` rectangle per horizontal run of dark modules. */
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
  // One rectangle per horizontal run of dark modules: a third of the bytes of one square per module, which
  // matters with ten codes in every page's header and footer.
  for (let y = 0; y < modules.size; y += 1) {
    let x = 0;
    while (x < modules.size) {
      if (!modules.get(y, x)) {
        x += 1;
        continue;
      }
      let run = 1;
      while (x + run < modules.size && modules.get(y, x + run)) run += 1;
      path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run;
    }
  }
  return { size: modules.size, path };
}

const QUIET_ZONE = 2;

/** A standalone SVG document of the code, with the quiet zone scanners need. */
export function qrSvgDocument(text: string): string {
  const matrix = qrMatrix(text);
  const side = matrix.size + QUIET_ZONE * 2;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-${QUIET_ZONE} -${QUIET_ZONE} ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect x="-${QUIET_ZONE}" y="-${QUIET_ZONE}" width="${side}" height="${side}" fill="#fff"/><path d="${matrix.path}" fill="#000"/></svg>`
  );
}
