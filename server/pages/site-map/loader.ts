/** /siteMap: made from what every page already has (the layout's menu) and the site table. */
import { ALL_SITES } from '../../../shared/sites';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type SiteMapData } from '../../../shared/pages/site-map/route';

export const loadSiteMap: Loader<SiteMapData> = async ({ site }) => ({
  kind: 'ok',
  data: { sites: ALL_SITES.map((entry) => ({ name: entry.name, domain: entry.domain })) },
  head: { title: siteTitle('网站地图', site), description: `${site.seo_title}网站地图`, keywords: site.seo_keywords },
});

export default definePageLoaders(route, { siteMap: loadSiteMap });
