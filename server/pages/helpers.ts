/** Small pieces several loaders share. */
import type { ContentApi } from '../../shared/content-api';
import { idParam, type RouteParams } from '../../shared/route-params';
import { rasterImage } from './share-image';
import { homeCatidOf, type SiteConfig } from '../../shared/sites';
import type { Category } from '../../shared/types/entities';
import type { PageHead } from '../../shared/app-state';
import type { Loader } from './types';

/** Depth-first search of the menu tree. */
export function findCategory(menu: readonly Category[], catid: number): Category | undefined {
  for (const node of menu) {
    if (node.catid === catid) return node;
    const found = findCategory(node.children, catid);
    if (found) return found;
  }
  return undefined;
}

/**
 * The one path of a page with a menu form (`/{menu}/{sub}/{segment}/{id}`, `/{menu}/{segment}/{id}`: V1, V2 and
 * topicDetail): the menu's own link to the category when the menu has it under a level-1 item (as shared/menu.ts
 * links it), else the path without a prefix. A menu prefix is reader text otherwise: `[A-Za-z0-9_-]{1,64}` twice,
 * as many pages as a reader cares to write (docs/security.md, "One path per page").
 */
export function menuPathOf(menu: readonly Category[], catid: number, segment: string): string {
  for (const parent of menu) {
    const child = parent.children.find((item) => item.catid === catid);
    if (child && parent.categoryDirectory && child.categoryDirectory) return `/${parent.categoryDirectory}/${child.categoryDirectory}/${segment}/${catid}`;
  }
  return `/${segment}/${catid}`;
}

/**
 * A menu form's loader: a prefix other than the menu's own (menuPathOf) is a 301 to that path, its query kept,
 * so an old link still arrives and no other prefix becomes a page, a cache entry or a canonical link.
 */
export function withMenuPath<T>(segment: string, load: Loader<T>): Loader<T> {
  return async (ctx) => {
    const id = idParam(ctx.params, 'id');
    const { menu, sub } = ctx.params;
    if (menu === undefined || id === undefined) return load(ctx);
    const asked = `/${menu}${sub === undefined ? '' : `/${sub}`}/${segment}/${id}`;
    const path = menuPathOf(await ctx.content.menu(), id, segment);
    if (path === asked) return load(ctx);
    const search = ctx.query.toString();
    return { kind: 'redirect', location: search ? `${path}?${search}` : path, permanent: true };
  };
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

/**
 * The entity the path's `id` names, or null when there is none or the path's `catid` (where the route has one)
 * is not its category: another category's address for it is not a page of this site.
 */
export async function entityInCategory<T extends { catid: number }>(params: RouteParams, find: (id: number) => Promise<T | null>): Promise<T | null> {
  const id = idParam(params, 'id');
  if (id === undefined) return null;
  const catid = idParam(params, 'catid');
  const entity = await find(id);
  return entity && (catid === undefined || catid === entity.catid) ? entity : null;
}

/** What a media page (a video, an album, a live broadcast) shows and shares. */
export interface MediaHead {
  title: string;
  description: string;
  /** What it is, after its title in the keywords: 视频, 视频专辑, 直播. */
  kind: string;
  /** Share picture candidates, best first. */
  images: ReadonlyArray<string | undefined>;
  jsonLd?: PageHead['jsonLd'];
}

/** The head of a media page: the site's title rule, Open Graph `video.other`, its picture and structured data. */
export function mediaHead(site: SiteConfig, media: MediaHead): PageHead {
  return {
    title: siteTitle(media.title, site),
    description: media.description,
    keywords: `${media.title},${media.kind}`,
    ogType: 'video.other',
    ...shareImageOf(site, media.images),
    ...(media.jsonLd ? { jsonLd: media.jsonLd } : {}),
  };
}
