/**
 * An original drawn at a slot's width with sharp (libvips): only raster formats a CMS serves are read (never SVG,
 * PDF or anything libvips would hand to another loader), the pixel count is checked from the header before any is
 * decoded (limitInputPixels: a decompression bomb is refused), one page of an animation is read, no metadata is
 * written (sharp keeps none unless asked: no EXIF, GPS or ICC profile), and the picture is turned upright first.
 */
import sharp, { type Sharp } from 'sharp';

export type OutputFormat = 'avif' | 'webp' | 'jpeg';

export const CONTENT_TYPES: Record<OutputFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };

/** What a CMS serves as a picture: anything else (SVG with its scripts, PDF, TIFF, a raw camera file) is refused. */
const READ_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);

// libvips keeps no cache of its own between pictures (bounded memory: a picture is read, drawn and let go), and
// draws with one thread each, so a few resizes at once never take both cores (./resize-queue.ts bounds how many).
sharp.cache(false);
sharp.concurrency(1);

export type PictureFailure = 'not-a-picture' | 'format' | 'too-many-pixels';

export class PictureError extends Error {
  constructor(
    readonly reason: PictureFailure,
    message: string,
  ) {
    super(message);
    this.name = 'PictureError';
  }
}

export interface ResizeLimits {
  maxPixels: number;
}

/** AVIF where the browser says it takes it, else WebP, else JPEG; `q=0` is a refusal; no wildcard counts. */
export function formatFor(accept: string | undefined): OutputFormat {
  const accepted = new Set(
    (accept ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(?:\.0*)?\s*(?:;|$)/.test(part))
      .map((part) => part.split(';')[0]!.trim()),
  );
  if (accepted.has('image/avif')) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return 'jpeg';
}

/** Drawn `width` wide, or fitted inside `width`×`height` when a box is asked for; never enlarged. */
export async function resizePicture(bytes: Buffer, width: number, format: OutputFormat, limits: ResizeLimits, height?: number): Promise<Buffer> {
  const input = (): Sharp => sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'truncated', pages: 1 });
  // The header only, with no pixel limit, so a bomb is told apart (too many pixels) from what is no picture at all.
  const metadata = await sharp(bytes, { limitInputPixels: false, pages: 1 })
    .metadata()
    .catch(() => {
      throw new PictureError('not-a-picture', 'the original is not a picture sharp can read');
    });
  if (!READ_FORMATS.has(metadata.format ?? ''))
    throw new PictureError('format', `the original is ${metadata.format ?? 'of no known format'}, not a raster picture`);
  const pixels = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0);
  if (pixels > limits.maxPixels)
    throw new PictureError('too-many-pixels', `the original is ${metadata.width}×${metadata.height}, over ${limits.maxPixels} pixels`);
  const pipeline = input()
    .rotate()
    .resize({ width, ...(height ? { height, fit: 'inside' as const } : {}), withoutEnlargement: true });
  const encoded =
    format === 'avif'
      ? pipeline.avif({ quality: 50, effort: 2 })
      : format === 'webp'
        ? pipeline.webp({ quality: 75 })
        : pipeline.jpeg({ quality: 78, mozjpeg: true });
  return encoded.toBuffer().catch((error: unknown) => {
    throw new PictureError('not-a-picture', `the original could not be decoded: ${error instanceof Error ? error.message : String(error)}`);
  });
}
