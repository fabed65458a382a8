/**
 * A QR code of the chrome (media matrix, mobile site), the same on every page: an immutable image the browser
 * caches once, instead of its SVG path inline in every page's HTML. Lazy, since most sit in hover panels.
 */
import { qrImagePath } from '../../qr-image-path';

export function QrImage({ value, size, label }: { value: string; size: number; label: string }) {
  return <img className="qr-code" src={qrImagePath(value)} width={size} height={size} alt={label} loading="lazy" decoding="async" />;
}
