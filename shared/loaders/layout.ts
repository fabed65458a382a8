/** Data every layout needs (header menu and banner, footer links, site SEO, grey mode), loaded once per document. */
import { BANNER_CATID, BANNER_SIZE } from '../constants';
import type { ContentApi } from '../content-api';
import { menuEntries, type MenuEntry } from '../menu';
import { isMainSite, type SiteConfig } from '../sites';
import type { ArticleSummary, FriendlyLink, GreyMode, SiteSeo } from '../types/entities';

export type BannerArticle = Pick<ArticleSummary, 'id' | 'catid' | 'title' | 'thumb'>;

export interface LayoutData {
  /** The header's menu with each item's target worked out (shared/menu.ts). */
  menu: MenuEntry[];
  /** The header's banner article: what its picture link shows. */
  banner: BannerArticle[];
  friendlyLinks: FriendlyLink[];
  seo: SiteSeo;
  greyMode: GreyMode;
}

export async function loadLayout(site: SiteConfig, content: ContentApi): Promise<LayoutData> {
  const [menu, banner, siteInfo, greyMode] = await Promise.all([
    content.menu(),
    content.articleList(BANNER_CATID, 1, BANNER_SIZE),
    content.siteInfo(site.id),
    content.greyMode(),
  ]);
  return {
    menu: menuEntries(menu, isMainSite(site)),
    banner: banner.items.map(({ id, catid, title, thumb }) => ({ id, catid, title, thumb })),
    friendlyLinks: siteInfo?.friendlyLinks ?? [],
    seo: siteInfo?.seo ?? { title: site.seo_title, keywords: site.seo_keywords, description: site.seo_description },
    greyMode,
  };
}
