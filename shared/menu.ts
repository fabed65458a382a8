/**
 * Menu template rules of docs/product.md §2 (Header) and §5: which href a menu item gets and which warning a misconfigured
 * one raises. Pure, so the header renders real links on the server and crawlers follow them.
 */
import { PROVINCE_PARENT_CATID } from './constants';
import { MAIN_DOMAIN, REGIONAL_SITES, type SiteConfig } from './sites';
import type { Category, TemplateCode } from './types/entities';

export const TEMPLATE_SEGMENTS: Readonly<Record<TemplateCode, string>> = {
  1: 'V1',
  2: 'V2',
  3: 'readNewspapers',
  4: '',
  5: 'topic',
  6: 'shike',
  7: 'home',
  8: 'topicDetail',
};

export const MENU_WARNINGS = {
  noTemplate: '二级菜单未指定模版，请联系后台管理人员',
  noHomepage: '二级菜单未设置主页请联系后台管理人员',
  noHomepageTemplate: '二级菜单未指定主页模版，请联系后台管理人员',
} as const;

export type MenuTarget = { kind: 'none' } | { kind: 'link'; href: string; external: boolean } | { kind: 'warning'; message: string };

/** Segments that have a /{menu}/{sub}/… form in the route table. */
const MENU_PREFIXED = new Set(['V1', 'V2', 'topicDetail']);
/** Templates whose pages live on the main domain only. */
const MAIN_DOMAIN_ONLY = new Set<TemplateCode>([3, 8]);

/**
 * A province entry (template 8 under the province parent) is that province's own site: its domain is looked up
 * by catid in the site table, so the link is real on the server and needs no call on click.
 */
function provinceSite(catid: number): SiteConfig | undefined {
  return REGIONAL_SITES.find((site) => site.catid === catid);
}

function mainSiteUrl(path: string): string {
  return `https://${MAIN_DOMAIN}${path}`;
}

function warningFor(item: Category): MenuTarget {
  if (!item.templateField) return { kind: 'warning', message: MENU_WARNINGS.noTemplate };
  if (item.template === 4) return { kind: 'warning', message: MENU_WARNINGS.noHomepage };
  return { kind: 'warning', message: MENU_WARNINGS.noHomepageTemplate };
}

function pathFor(item: Category, segment: string, parent: Category | null): string {
  const menu = parent?.categoryDirectory;
  const sub = item.categoryDirectory;
  if (parent && menu && sub && MENU_PREFIXED.has(segment)) return `/${menu}/${sub}/${segment}/${item.catid}`;
  return `/${segment}/${item.catid}`;
}

/**
 * Where a click on `item` goes. `parent` is null for level-1 items. On a regional site, templates 3 and 8 go to
 * the main domain (template 8 under the province parent is resolved to the province's domain on click).
 */
export function menuTarget(item: Category, parent: Category | null, onMainSite: boolean): MenuTarget {
  const template = item.template;
  if (template === 7) return { kind: 'link', href: onMainSite ? '/' : mainSiteUrl('/'), external: !onMainSite };
  if (!parent && (template === 1 || template === 2 || template === 5)) return { kind: 'none' };
  if (template === null || template === 4) return parent ? warningFor(item) : { kind: 'none' };
  const province = template === 8 && parent?.catid === PROVINCE_PARENT_CATID ? provinceSite(item.catid) : undefined;
  if (province) return { kind: 'link', href: `https://${province.domain}/`, external: true };
  const path = pathFor(item, TEMPLATE_SEGMENTS[template], parent);
  if (!onMainSite && MAIN_DOMAIN_ONLY.has(template)) return { kind: 'link', href: mainSiteUrl(path), external: true };
  return { kind: 'link', href: path, external: false };
}

/**
 * A menu item as the header and the site map show it: its name and where a click goes, worked out on the server.
 * This is what the page state carries (docs/build.md, page weight: the state holds what the client reads): half the
 * bytes of the CMS's categories, whose directory and template fields only served to compute the target.
 */
export interface MenuEntry {
  catid: number;
  catname: string;
  /** A link's address; absent when the item is a label or misconfigured. */
  href?: string;
  /** What a click on a misconfigured item says (docs/product.md §5 warnings). */
  warning?: string;
  /** Sub-items; absent for a leaf. */
  children?: MenuEntry[];
}

function menuEntry(item: Category, parent: Category | null, onMainSite: boolean): MenuEntry {
  const target = menuTarget(item, parent, onMainSite);
  return {
    catid: item.catid,
    catname: item.catname,
    ...(target.kind === 'link' ? { href: target.href } : {}),
    ...(target.kind === 'warning' ? { warning: target.message } : {}),
    ...(item.children.length > 0 ? { children: item.children.map((child) => menuEntry(child, item, onMainSite)) } : {}),
  };
}

/** The CMS's two-level menu tree as the site shows it. */
export function menuEntries(menu: readonly Category[], onMainSite: boolean): MenuEntry[] {
  return menu.map((item) => menuEntry(item, null, onMainSite));
}
