/**
 * Where a CMS picture is resized (docs/images.md): by the portal's own resizer under `/img/{width}/{source}`
 * (server/images/), by a CDN whose resize URL a template names, or nowhere. The page state carries the choice, so
 * the server's render and the browser's hydration draw the same `srcset`. Only the widths below are ever asked
 * for, so the resizer refuses every other one and a reader cannot make it draw (and store) arbitrary sizes.
 */

/** The portal's own resizer: pictures on `origins`, and site-relative `/media/…` ones when `relative`. */
export interface ResizerPipeline {
  kind: 'resizer';
  origins: readonly string[];
  relative: boolean;
}

/** A CDN's resizer: `template` with `{src}`, `{width}` and `{format}` replaced, for pictures on `origins`. */
export interface CdnPipeline {
  kind: 'cdn';
  origins: readonly string[];
  template: string;
  format: string;
}

export type ImagePipeline = { kind: 'off' } | ResizerPipeline | CdnPipeline;

export const IMAGES_OFF: ImagePipeline = { kind: 'off' };

export const RESIZER_PREFIX = '/img/';

/**
 * Every width a slot asks for: the card and column ladders (shared/image-sizes.ts) and the avatars at 1x, 2x
 * and 3x. The resizer answers no other.
 */
export const RESIZER_WIDTHS: ReadonlySet<number> = new Set([24, 48, 64, 72, 80, 96, 128, 144, 160, 192, 216, 240, 288, 320, 480, 640, 960, 1280, 1920]);

/**
 * Boxes a picture is drawn to fit inside, for slots bound by their height (an ad: as high as its slot, as wide as
 * its aspect): the page's width by twice the slot's height (80, 90 and 120 px slots). The resizer answers no other.
 */
export const RESIZER_BOXES: ReadonlySet<string> = new Set(['1280x160', '1280x180', '1280x240']);

/** Whether the pipeline resizes this source (a picture on its origins; its own `/media/…` in embedded mode). */
export function resizableSource(pipeline: ImagePipeline, src: string): boolean {
  if (pipeline.kind === 'off' || src === '') return false;
  if (src.startsWith('/') && !src.startsWith('//')) return pipeline.kind === 'resizer' && pipeline.relative && src.startsWith('/media/');
  const origin = originOf(src);
  return origin !== null && pipeline.origins.includes(origin);
}

function originOf(src: string): string | null {
  try {
    const url = new URL(src);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The picture `width` wide through the pipeline; null where it does not resize this picture or this width. */
export function resizedUrl(pipeline: ImagePipeline, src: string, width: number): string | null {
  if (!RESIZER_WIDTHS.has(width) || !resizableSource(pipeline, src)) return null;
  if (pipeline.kind === 'resizer') return `${RESIZER_PREFIX}${width}/${toBase64Url(src)}`;
  if (pipeline.kind === 'cdn') return fillTemplate(pipeline.template, src, width, pipeline.format);
  return null;
}

export function fillTemplate(template: string, src: string, width: number, format: string): string {
  return template.replaceAll('{src}', src).replaceAll('{width}', String(width)).replaceAll('{format}', format);
}

/**
 * The picture fitted inside `width`×`height` through the embedded resizer; a CDN's template names a width only, so
 * it gets the width; null where the pipeline does not resize this picture or this box.
 */
export function boxedUrl(pipeline: ImagePipeline, src: string, width: number, height: number): string | null {
  if (pipeline.kind !== 'resizer') return resizedUrl(pipeline, src, width);
  if (!RESIZER_BOXES.has(`${width}x${height}`) || !resizableSource(pipeline, src)) return null;
  return `${RESIZER_PREFIX}${width}x${height}/${toBase64Url(src)}`;
}

export interface ResizedPath {
  width: number;
  /** A box's height (boxedUrl); absent for a width alone. */
  height?: number;
  src: string;
}

/** `/img/{width}/…` or `/img/{width}x{height}/…` as resizedUrl and boxedUrl make them; null for anything else. */
export function parseResizedPath(path: string): ResizedPath | null {
  const match = /^\/img\/(\d{1,4}(?:x\d{1,4})?)\/([A-Za-z0-9_-]{4,2800})$/.exec(path);
  if (!match) return null;
  const [width, height] = match[1]!.split('x').map(Number) as [number, number | undefined];
  const known = height === undefined ? RESIZER_WIDTHS.has(width) && match[1] === String(width) : RESIZER_BOXES.has(match[1]!);
  if (!known) return null;
  const src = fromBase64Url(match[2]!);
  if (src === null || toBase64Url(src) !== match[2]) return null;
  return height === undefined ? { width, src } : { width, height, src };
}

/** UTF-8, base64url without padding: an address in one path segment (btoa and atob exist on both sides). */
function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(encoded: string): string | null {
  try {
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
