/**
 * A QR code of `value` (the share dialog's code of the page being read), as the server's immutable image of it
 * (shared/qr-image-path.ts): the browser bundle carries no QR encoder, which weighed ~8 KB gzipped on every
 * page for a dialog few readers open (docs/build.md).
 */
import { qrImagePath } from '../../qr-image-path';

export function QrCode({ value, size, label }: { value: string; size: number; label: string }) {
  return <img className="qr-code" src={qrImagePath(value)} width={size} height={size} alt={label} data-value={value} />;
}
