/**
 * Images and videos served by the reference API itself, so the portal's pages, tests and benchmarks never reach
 * the internet. Pictures are deterministic JPEGs painted on request (./pictures.ts) whose size is part of the URL,
 * which lets layout tests check aspect ratios; the older '.svg' form of every path (a gradient with a label) is still
 * served. The one video is a generated H.264 MP4 (./mp4.ts).
 */
import { hashString } from './random';
import { buildMp4 } from './mp4';

export const IMAGE_PREFIX = '/media/img/';
export const VIDEO_PREFIX = '/media/video/';
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const MIN_SIDE = 16;
const MAX_SIDE = 4000;
/** Painting and encoding cost grows with the area; 2.6 megapixels covers the largest picture the dataset names. */
const MAX_RASTER_PIXELS = 2_600_000;
const KEY_PATTERN = /^[a-z][a-z0-9]{0,39}$/;

export type ImageFormat = 'jpg' | 'svg';

/**
 * `sized`: a picture at the size its path names (a media server that resizes, as the portal's srcset used to
 * assume). `one-size` (REFERENCE_IMAGES=one-size): every picture at one large size, whatever its path names, as
 * a real CMS serves its uploads; the path's size then only gives the aspect.
 */
export type ReferenceImages = 'sized' | 'one-size';

export function referenceImagesOf(value: string | undefined): ReferenceImages {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '' || trimmed === 'sized') return 'sized';
  if (trimmed === 'one-size') return 'one-size';
  throw new Error(`REFERENCE_IMAGES=${JSON.stringify(value)}: must be "one-size", "sized" or unset`);
}

/** The width an upload is kept at in one-size mode: a camera's picture as a newsroom's CMS keeps it. */
export const ONE_SIZE_WIDTH = 1600;

/** The picture at ONE_SIZE_WIDTH, its aspect kept, within the painter's pixel and side bounds. */
export function atOneSize(request: ImageRequest): ImageRequest {
  const byWidth = ONE_SIZE_WIDTH / request.width;
  const byPixels = Math.sqrt(MAX_RASTER_PIXELS / (request.width * request.height));
  const scale = Math.min(byWidth, byPixels, MAX_SIDE / request.height);
  const side = (length: number): number => Math.max(MIN_SIDE, Math.floor(length * scale));
  return { ...request, width: side(request.width), height: side(request.height) };
}

/**
 * Path of a generated image; keys are lowercase letters and digits only, so the '-' before the size is unambiguous.
 * SVG is kept for wordmarks (the skin's logo), where a label is the picture.
 */
export function imagePath(key: string, width: number, height: number, format: ImageFormat = 'jpg'): string {
  if (!KEY_PATTERN.test(key)) throw new Error(`bad image key ${key}`);
  return `${IMAGE_PREFIX}${key}-${width}x${height}.${format}`;
}

export function videoPath(adId: number): string {
  return `${VIDEO_PREFIX}${adId}.mp4`;
}

export interface ImageRequest {
  key: string;
  width: number;
  height: number;
  format: ImageFormat;
}

export function parseImagePath(pathname: string): ImageRequest | null {
  if (!pathname.startsWith(IMAGE_PREFIX)) return null;
  const match = /^([a-z][a-z0-9]{0,39})-(\d{1,4})x(\d{1,4})\.(jpg|svg)$/.exec(pathname.slice(IMAGE_PREFIX.length));
  if (!match) return null;
  const width = Number(match[2]);
  const height = Number(match[3]);
  const format = match[4] === 'jpg' ? 'jpg' : 'svg';
  const inRange = (side: number): boolean => side >= MIN_SIDE && side <= MAX_SIDE;
  if (!inRange(width) || !inRange(height)) return null;
  if (format === 'jpg' && width * height > MAX_RASTER_PIXELS) return null;
  return { key: match[1] ?? '', width, height, format };
}

export function parseVideoPath(pathname: string): number | null {
  const match = /^\/media\/video\/(\d{1,9})\.mp4$/.exec(pathname);
  return match ? Number(match[1]) : null;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderSvg(request: ImageRequest, label: string): string {
  const { key, width, height } = request;
  const hash = hashString(key);
  const hueA = hash % 360;
  const hueB = (hueA + 40 + ((hash >>> 9) % 80)) % 360;
  const fontSize = Math.max(10, Math.min(Math.round(height / 5), Math.round(width / Math.max(2, label.length + 1))));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hueA},55%,42%)"/><stop offset="1" stop-color="hsl(${hueB},60%,62%)"/>` +
    `</linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>` +
    `<text x="50%" y="50%" dominant-baseline="middle" text-anchor="middle" fill="#fff" fill-opacity="0.92" ` +
    `font-family="PingFang SC,Microsoft YaHei,Noto Sans CJK SC,sans-serif" font-size="${fontSize}">${escapeXml(label)}</text>` +
    `</svg>`
  );
}

const videoCache = new Map<number, Buffer>();

/** A 2-second 160×96 clip; the tint varies by ad so carousels show which slide is playing. */
export function videoBytes(adId: number): Buffer {
  const tint = hashString(`video-${adId}`) % 256;
  let bytes = videoCache.get(tint);
  if (!bytes) {
    bytes = buildMp4({ width: 160, height: 96, frames: 20, fps: 10, tint });
    videoCache.set(tint, bytes);
  }
  return bytes;
}
