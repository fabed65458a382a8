/**
 * What a page looks like when shared inside WeChat (docs/product.md §7: title, desc, link, image; the default title and
 * description are the site name). Articles and videos share their own headline and summary; every other page its
 * own name, or the site name on the home page. Pure, so server tests and the browser agree on it.
 */
import type { PageHead } from './app-state';
import { PORTAL_INFO } from './portal-info';

export interface ShareCard {
  title: string;
  desc: string;
  link: string;
  imgUrl: string;
}

/** The JS-SDK calls the portal uses (wx.config's jsApiList). */
export const SHARE_APIS = ['updateAppMessageShareData', 'updateTimelineShareData'] as const;

/** WeChat's own browser names itself in the user agent; only there is the JS-SDK loaded. */
export function isWechatBrowser(userAgent: string): boolean {
  return /MicroMessenger/i.test(userAgent);
}

/** The address WeChat signs and the card links to: the page's URL without its #hash. */
export function shareLink(href: string): string {
  const index = href.indexOf('#');
  return index === -1 ? href : href.slice(0, index);
}

export function siteShareName(site: { name: string; isMain: boolean }): string {
  return site.isMain ? PORTAL_INFO.name : `${PORTAL_INFO.name}${site.name}`;
}

export interface ShareInput {
  head: PageHead;
  /** The site's SEO title, which page titles end with (' - …'). */
  siteTitle: string;
  siteName: string;
  href: string;
  /** Image when the page has none (an absolute URL). */
  fallbackImage: string;
}

export function shareCard({ head, siteTitle, siteName, href, fallbackImage }: ShareInput): ShareCard {
  const suffix = ` - ${siteTitle}`;
  const own = head.title.endsWith(suffix) ? head.title.slice(0, -suffix.length).trim() : head.title.trim();
  const title = own === '' || own === siteTitle ? siteName : own;
  const specific = head.ogType === 'article' || head.ogType === 'video.other';
  const desc = specific && head.description.trim() !== '' ? head.description.trim() : siteName;
  return { title, desc, link: shareLink(href), imgUrl: head.image || fallbackImage };
}
