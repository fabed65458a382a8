/** Loads the data every layout needs (shared/app-state.ts LayoutData), once per document. */
import { BANNER_CATID, BANNER_SIZE } from '../../shared/constants';
import type { ContentApi } from '../../shared/content-api';
import type { LayoutData } from '../../shared/app-state';
import { menuEntries } from '../../shared/menu';
import { isMainSite, type SiteConfig } from '../../shared/sites';

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
