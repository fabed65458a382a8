/** A QR code of `value`, drawn as SVG at the given size with a quiet zone (scanners need the white border). */
import { useMemo } from 'react';
import { qrMatrix } from '../../shared/qr';

const QUIET_ZONE = 2;

export function QrCode({ value, size, label }: { value: string; size: number; label: string }) {
  const matrix = useMemo(() => qrMatrix(value), [value]);
  const side = matrix.size + QUIET_ZONE * 2;
  return (
    <svg
      className="qr-code"
      width={size}
      height={size}
      viewBox={`-${QUIET_ZONE} -${QUIET_ZONE} ${side} ${side}`}
      role="img"
      aria-label={label}
      data-value={value}
      shapeRendering="crispEdges"
    >
      <rect x={-QUIET_ZONE} y={-QUIET_ZONE} width={side} height={side} fill="#fff" />
      <path d={matrix.path} fill="#000" />
    </svg>
  );
}
