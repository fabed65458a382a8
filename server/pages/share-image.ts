/**
 * Pictures for share cards and structured data. WeChat, Weibo and crawlers take absolute URLs of raster images
 * only: a relative media path is made absolute on the site's own origin, SVGs are passed over, and a page
 * without a raster picture shares the publisher's logo.
 */
import type { SiteConfig } from '../../shared/sites';

const RASTER_PATH = /\.(jpe?g|png|webp|gif)$/i;

export function siteOrigin(site: SiteConfig): string {
  return `https://${site.domain}`;
}

/** `url` absolute on the site's origin (already absolute http(s) URLs stay as they are); null if unusable. */
export function absoluteUrl(url: string, site: SiteConfig): string | null {
  if (url.trim() === '') return null;
  try {
    const parsed = new URL(url, `${siteOrigin(site)}/`);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export function isRasterImage(url: string): boolean {
  try {
    return RASTER_PATH.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** The first candidate that is a raster image, absolute; undefined when none is. */
export function rasterImage(site: SiteConfig, candidates: ReadonlyArray<string | undefined>): string | undefined {
  for (const candidate of candidates) {
    const url = candidate === undefined ? null : absoluteUrl(candidate, site);
    if (url && isRasterImage(url)) return url;
  }
  return undefined;
}

/** The images an article's body shows, in order (the body is sanitised HTML). */
export function bodyImages(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*?\ssrc="([^"]+)"/gi)].map((match) => match[1]!.replace(/&amp;/g, '&'));
}

/** The publisher's raster logo (public/logo.png), what a page without its own picture shares. */
export function logoUrl(site: SiteConfig): string {
  return `${siteOrigin(site)}/logo.png`;
}
