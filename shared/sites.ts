/**
 * The regional site table (docs/product.md §3: a stub of 22 province and city entries, with the main site '首页' as the
 * fallback). The site is chosen by the request's Host; the raw Host never leaves resolveSite.
 */
import { HOME_CATID } from './constants';

export interface SiteConfig {
  /** 0 is the main site; 1..22 the regional sites. Used in cache keys instead of the Host. */
  id: number;
  name: string;
  domain: string;
  /** The site's home category; 0 means 'use the main home categories'. */
  catid: number;
  remark: string;
  seo_title: string;
  seo_keywords: string;
  seo_description: string;
  /** Unix seconds. */
  createtime: number;
  updatetime: number;
}

export const BASE_DOMAIN = 'qnnews.cn';
export const MAIN_DOMAIN = `www.${BASE_DOMAIN}`;
const SITE_CREATED = 1640966400; // 2022-01-01 Asia/Shanghai
const SITE_UPDATED = 1761926400; // 2025-11-01

export const MAIN_SITE: SiteConfig = {
  id: 0,
  name: '首页',
  domain: MAIN_DOMAIN,
  catid: 0,
  remark: '全国主站',
  seo_title: '青年新闻网 - 权威新闻 青春视角',
  seo_keywords: '青年新闻网,新闻,时政,青年,评论,视频,直播',
  seo_description: '青年新闻网是全国性新闻门户，提供权威时政、社会、教育、科技、文化新闻与视频直播。',
  createtime: SITE_CREATED,
  updatetime: SITE_UPDATED,
};

/** [subdomain, region name, home catid (0 = main categories)] */
const REGIONS: ReadonlyArray<readonly [string, string, number]> = [
  ['bj', '北京', 3258],
  ['tj', '天津', 3259],
  ['hebei', '河北', 3260],
  ['shanxi', '山西', 3261],
  ['nmg', '内蒙古', 0],
  ['ln', '辽宁', 3262],
  ['jl', '吉林', 3263],
  ['hlj', '黑龙江', 0],
  ['sh', '上海', 3264],
  ['js', '江苏', 3265],
  ['zj', '浙江', 3266],
  ['ah', '安徽', 3267],
  ['fj', '福建', 3268],
  ['jx', '江西', 0],
  ['sd', '山东', 3269],
  ['henan', '河南', 3270],
  ['hubei', '湖北', 3271],
  ['hunan', '湖南', 3272],
  ['gd', '广东', 3273],
  ['cq', '重庆', 3274],
  ['sc', '四川', 3275],
  ['sz', '深圳', 0],
];

export const REGIONAL_SITES: readonly SiteConfig[] = REGIONS.map(([sub, region, catid], index) => ({
  id: index + 1,
  name: region,
  domain: `${sub}.${BASE_DOMAIN}`,
  catid,
  remark: `${region}频道`,
  seo_title: `青年新闻网${region}频道 - ${region}新闻 青春视角`,
  seo_keywords: `${region}新闻,${region}青年,${region}频道,青年新闻网`,
  seo_description: `青年新闻网${region}频道，报道${region}本地时政、民生、教育与青年故事。`,
  createtime: SITE_CREATED + (index + 1) * 86400,
  updatetime: SITE_UPDATED,
}));

export const ALL_SITES: readonly SiteConfig[] = [MAIN_SITE, ...REGIONAL_SITES];

const SITES_BY_DOMAIN = new Map<string, SiteConfig>(ALL_SITES.map((site) => [site.domain, site]));
SITES_BY_DOMAIN.set(BASE_DOMAIN, MAIN_SITE);

/** Lower-cases, drops the port and a trailing dot; returns '' for anything that is not a plain host name. */
export function normaliseHost(host: string | undefined): string {
  if (!host) return '';
  const withoutPort = host
    .trim()
    .toLowerCase()
    .replace(/:\d{1,5}$/, '')
    .replace(/\.$/, '');
  return /^[a-z0-9.-]{1,253}$/.test(withoutPort) ? withoutPort : '';
}

/** The site a host names (its domain, or the bare base domain for the main site); undefined for any other host. */
export function siteOfKnownHost(host: string | undefined): SiteConfig | undefined {
  return SITES_BY_DOMAIN.get(normaliseHost(host));
}

/** Host → site; unknown, malformed or missing hosts get the main site (docs/product.md §3 fallback). */
export function resolveSite(host: string | undefined): SiteConfig {
  return SITES_BY_DOMAIN.get(normaliseHost(host)) ?? MAIN_SITE;
}

/** The site with this id (ids are positions in ALL_SITES), for labels that name sites by domain. */
export function siteById(id: number): SiteConfig | undefined {
  return ALL_SITES[id];
}

export function isMainSite(site: SiteConfig): boolean {
  return site.id === MAIN_SITE.id;
}

/** The category whose children are the site's home blocks. */
export function homeCatidOf(site: SiteConfig): number {
  return site.catid > 0 ? site.catid : HOME_CATID;
}
