/** Data every layout needs (header menu and banner, footer links, site SEO, grey mode), loaded once per document. */
import { BANNER_CATID, BANNER_SIZE } from '../constants';
import type { ContentApi } from '../content-api';
import type { SiteConfig } from '../sites';
import type { ArticleSummary, Category, FriendlyLink, GreyMode, SiteSeo } from '../types/entities';

export interface LayoutData {
  menu: Category[];
  banner: ArticleSummary[];
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
    menu,
    banner: banner.items,
    friendlyLinks: siteInfo?.friendlyLinks ?? [],
    seo: siteInfo?.seo ?? { title: site.seo_title, keywords: site.seo_keywords, description: site.seo_description },
    greyMode,
  };
}
