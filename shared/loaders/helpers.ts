/** Small pieces several loaders share. */
import type { SiteConfig } from '../sites';
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

export function siteTitle(title: string, site: SiteConfig): string {
  return `${title} - ${site.seo_title}`;
}
