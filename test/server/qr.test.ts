import QRCode from 'qrcode';
import { qrMatrix } from '../../server/qr';

/** The modules a path of `M x y h{n}v1h-{n}z` runs covers. */
function covered(path: string): Set<string> {
  const cells = new Set<string>();
  for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(run); i += 1) cells.add(`${Number(x) + i},${y}`);
  }
  return cells;
}

describe('QR code paths', () => {
  it.each(['https://www.qnnews.cn/detail/2728/33727', 'https://m.qnnews.cn/'])('draw exactly the dark modules of %s', (text) => {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const expected = new Set<string>();
    for (let y = 0; y < modules.size; y += 1) for (let x = 0; x < modules.size; x += 1) if (modules.get(y, x)) expected.add(`${x},${y}`);
    const matrix = qrMatrix(text);
    expect(matrix.size).toBe(modules.size);
    expect(covered(matrix.path)).toEqual(expected);
  });
});
