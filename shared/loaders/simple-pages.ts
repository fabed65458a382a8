/** Pages made from what every page already has (the layout's menu, the site table, the publisher's details). */
import { ALL_SITES } from '../sites';
import { siteTitle } from './helpers';
import type { Loader } from './types';

export interface SiteMapData {
  sites: Array<{ name: string; domain: string }>;
}

export const loadSiteMap: Loader<SiteMapData> = async ({ site }) => ({
  kind: 'ok',
  data: { sites: ALL_SITES.map((entry) => ({ name: entry.name, domain: entry.domain })) },
  head: { title: siteTitle('网站地图', site), description: `${site.seo_title}网站地图`, keywords: site.seo_keywords },
});

export const loadLicense: Loader<Record<string, never>> = async ({ site }) => ({
  kind: 'ok',
  data: {},
  head: { title: siteTitle('证照信息', site), description: `${site.seo_title}证照信息`, keywords: site.seo_keywords },
});
