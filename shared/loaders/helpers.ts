/** Small pieces several loaders share. */
import type { ContentApi } from '../content-api';
import { rasterImage } from '../share-image';
import { homeCatidOf, type SiteConfig } from '../sites';
import type { Category } from '../types/entities';

/** Depth-first search of the menu tree. */
export function findCategory(menu: readonly Category[], catid: number): Category | undefined {
  for (const node of menu) {
    if (node.catid === catid) return node;
    const found = findCategory(node.children, catid);
    if (found) return found;
  }
  return undefined;
}

/** The head's share picture: the first raster candidate, absolute; none (the document shares the logo) otherwise. */
export function shareImageOf(site: SiteConfig, candidates: ReadonlyArray<string | undefined>): { image?: string } {
  const image = rasterImage(site, candidates);
  return image ? { image } : {};
}

/** The one rule for a page's title: what it shows, then the site's SEO title. */
export function siteTitle(title: string, site: SiteConfig): string {
  return `${title} - ${site.seo_title}`;
}

/**
 * A category as the site shows it: from the menu, or from the site's home blocks, which the menu does not list.
 * Both trees are cached, so looking in each costs nothing.
 */
export async function siteCategory(content: ContentApi, site: SiteConfig, catid: number): Promise<Category | undefined> {
  const [menu, homeBlocks] = await Promise.all([content.menu(), content.categoryChildren(homeCatidOf(site))]);
  return findCategory(menu, catid) ?? findCategory(homeBlocks, catid);
}
