/**
 * Pictures at the size of their slot (issue 29): `srcset` candidates for an image whose media server draws it at
 * any size asked. The one such form known is the reference content API's: `/media/img/{key}-{W}x{H}.jpg` names
 * the picture's size in its path, and the server paints the same picture at any other size of that aspect
 * (scripts/reference-api/media.ts). The content spec names no size field or resize parameter for the CMS's own
 * media, so any other address gets no candidates and the browser loads it as it is
 * (docs/decisions/0072-image-sizes-from-the-path.md). With an image pipeline (./image-pipeline.ts: the portal's
 * resizer or a CDN's) every picture on its origins gets its slot's ladder of widths through it instead.
 *
 * A picture the CMS left empty is drawn with no `src` at all (`src={path || undefined}` where one is drawn): an
 * empty `src` is a request for the page itself in some browsers, and React reports it on every render. The
 * element stays, so its width and height still hold the slot (test/browser/hostile-content.test.ts).
 */

import { boxedUrl, resizedUrl, type ImagePipeline } from './image-pipeline';

const SIZED_IMAGE = /^((?:https?:\/\/[^/?#]+)?\/media\/img\/[a-z][a-z0-9]{0,39})-(\d{1,4})x(\d{1,4})\.jpg$/;

/** Widths offered to a slot that changes with the screen: a phone's columns up to a wide screen at 2x. */
export const IMAGE_WIDTHS = [160, 240, 320, 480, 640, 960, 1280, 1920] as const;

interface SizedImage {
  stem: string;
  width: number;
  height: number;
}

function sizedImage(src: string): SizedImage | null {
  const match = SIZED_IMAGE.exec(src);
  if (!match) return null;
  return { stem: match[1]!, width: Number(match[2]), height: Number(match[3]) };
}

/** The same picture `width` wide, its aspect kept (the server draws nothing under 16px). */
function atWidth(image: SizedImage, width: number): string {
  return `${image.stem}-${width}x${Math.max(16, Math.round((width * image.height) / image.width))}.jpg`;
}

/**
 * Width candidates (`480w`) for a picture whose slot is as wide as the page's layout makes it; the `sizes`
 * beside it says how wide. Through a pipeline: the slot's ladder (SLOT_WIDTHS). Otherwise, for a picture whose
 * path names its size: never wider than the picture itself, which is the last candidate.
 */
export function widthSrcSet(src: string | undefined, pipeline: ImagePipeline, slot: keyof typeof SLOT_SIZES): string | undefined {
  if (!src) return undefined;
  const resized = SLOT_WIDTHS[slot].map((width) => {
    const url = resizedUrl(pipeline, src, width);
    return url && `${url} ${width}w`;
  });
  if (resized.every(Boolean)) return resized.join(', ');
  const image = sizedImage(src);
  if (!image) return undefined;
  const smaller = IMAGE_WIDTHS.filter((width) => width < image.width).map((width) => `${atWidth(image, width)} ${width}w`);
  return [...smaller, `${src} ${image.width}w`].join(', ');
}

/** Density candidates (`2x`) for a picture drawn at a fixed CSS width (an avatar), up to the picture's own. */
export function densitySrcSet(src: string | undefined, cssWidth: number, pipeline: ImagePipeline): string | undefined {
  if (!src) return undefined;
  // 1x and 2x: a 3x screen takes the 2x file, a third of the bytes of a 3x one, for a picture this small.
  const resized = [1, 2].map((density) => {
    const url = resizedUrl(pipeline, src, cssWidth * density);
    return url && `${url} ${density}x`;
  });
  if (resized.every(Boolean)) return resized.join(', ');
  const image = sizedImage(src);
  if (!image) return undefined;
  const candidates: string[] = [];
  for (const density of [1, 2, 3]) {
    const width = cssWidth * density;
    if (width >= image.width) {
      candidates.push(`${src} ${density}x`);
      break;
    }
    candidates.push(`${atWidth(image, width)} ${density}x`);
  }
  return candidates.join(', ');
}

/** `sizes` of the slots the portal's layouts give pictures (client/styles/main.css, under 768px two columns). */
export const SLOT_SIZES = {
  /** Article bodies: the width of the screen on a phone, the article column beside the float menu from 768px. */
  articleBody: '(max-width: 767px) calc(100vw - 32px), 808px',
  /** Card grids (V2 lists, topics, videos, picture stories): two columns on a phone, three or four wider. */
  card: '(max-width: 767px) calc(50vw - 24px), 300px',
  /** Picture stories' covers: two columns on a phone, three wider. */
  galleryCover: '(max-width: 767px) calc(50vw - 24px), 420px',
  /** The side column's topic thumbnails. */
  sideTopic: '180px',
  /** A live's cover and a story's pictures: the main column's width. */
  mainColumn: '(max-width: 1295px) calc(100vw - 32px), 1264px',
  /** The header's banner: the page's width, never on a phone (Header.tsx). */
  banner: '1296px',
} as const;

/**
 * The widths each slot's pictures are offered at through a pipeline: from a phone's share of the slot at 1x up to
 * the slot's widest CSS width at 2x (a 3x phone's share is under that), each step at most twice the last, and no
 * more of them than that: every candidate is an address of some 90 bytes in the page, whose HTML has a budget
 * (docs/build.md). The resizer answers only these (RESIZER_WIDTHS in ./image-pipeline.ts holds them all).
 */
export const SLOT_WIDTHS: Record<keyof typeof SLOT_SIZES, readonly number[]> = {
  articleBody: [480, 960, 1280, 1920],
  card: [160, 240, 320, 480, 640],
  galleryCover: [240, 480, 640, 960],
  sideTopic: [240, 480],
  mainColumn: [480, 960, 1280, 1920],
  banner: [1280, 1920],
};

/**
 * An ad's picture: as high as its slot and as wide as its aspect makes it, at most the slot's width
 * (AdCarousel.tsx), so no `sizes` can say how wide. One file through the pipeline instead of a ladder (a page
 * holds up to a dozen ads, and a ladder's addresses took home and articles past their HTML budgets): fitted inside
 * the page's width and twice the slot's height (a 2x screen's), in the browser's modern format, instead of the
 * CMS's upload; at the page's width where the pipeline takes widths only (a CDN's template). The CMS's own address
 * without a pipeline.
 */
export const AD_WIDTH = 1280;

export function adSrc(src: string, pipeline: ImagePipeline, slotHeight: number): string | undefined {
  if (!src) return undefined;
  return boxedUrl(pipeline, src, AD_WIDTH, 2 * slotHeight) ?? oneWidthSrc(src, pipeline, AD_WIDTH);
}

/** A player's poster (no `srcset` on a poster): the player's width, through the pipeline where it resizes it. */
export const POSTER_WIDTH = 960;

/** The picture at one width through the pipeline, or the CMS's own address where it does not resize it. */
export function oneWidthSrc(src: string, pipeline: ImagePipeline, width: number): string | undefined {
  if (!src) return undefined;
  return resizedUrl(pipeline, src, width) ?? src;
}

/**
 * An article body's pictures with the article column's candidates, added as the body is drawn (not when it is
 * sanitised and cached: the pipeline is configuration, the body is content). Works on sanitised output
 * (server/upstream/sanitise-html.ts), where every attribute is double-quoted and escaped and no `srcset` is left.
 */
export function withBodyImageCandidates(html: string, pipeline: ImagePipeline): string {
  return html.replace(/<img\b[^>]*>/g, (tag) => {
    const src = /\ssrc="([^"]*)"/.exec(tag)?.[1];
    const srcset = src ? widthSrcSet(unescapeAttribute(src), pipeline, 'articleBody') : undefined;
    if (!srcset) return tag;
    const added = ` srcset="${escapeAttribute(srcset)}" sizes="${SLOT_SIZES.articleBody}"`;
    return tag.replace(/\s*\/?>$/, (end) => `${added}${end}`);
  });
}

function unescapeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}
