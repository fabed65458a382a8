/**
 * Where a QR code's image is served: `/assets/qr/{text as base64url}.svg`, a pure function of the text, so
 * server and browser name the same URL and any cache may keep it for good. Kept apart from server/qr.ts so the
 * browser bundle does not carry the QR encoder to name an image.
 */

/** Longest text a QR image URL may carry (the chrome's codes are short addresses). */
export const QR_IMAGE_TEXT_MAX = 512;
const QR_IMAGE_PREFIX = '/assets/qr/';
const QR_IMAGE_SUFFIX = '.svg';

function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The image URL of a code: a pure function of the text, the same on server and browser. */
export function qrImagePath(text: string): string {
  return `${QR_IMAGE_PREFIX}${toBase64Url(text)}${QR_IMAGE_SUFFIX}`;
}

/**
 * The text of an image file name (`{base64url}.svg`), or null unless it is exactly what qrImagePath makes of
 * some text no longer than QR_IMAGE_TEXT_MAX: one URL per code, so caches never hold two copies.
 */
export function qrTextOfImageName(fileName: string): string | null {
  if (!fileName.endsWith(QR_IMAGE_SUFFIX)) return null;
  const payload = fileName.slice(0, -QR_IMAGE_SUFFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(payload) || payload.length > Math.ceil((QR_IMAGE_TEXT_MAX * 4 * 4) / 3)) return null;
  let text: string;
  try {
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
  if (text.length === 0 || text.length > QR_IMAGE_TEXT_MAX || toBase64Url(text) !== payload) return null;
  return text;
}
