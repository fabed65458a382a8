/** /siteMap: made from what every page already has (the layout's menu) and the site table. */
import { ALL_SITES } from '../../sites';
import { siteTitle } from '../../loaders/helpers';
import type { Loader } from '../../loaders/types';
import { definePageLoaders } from '../../loaders/define';
import route, { type SiteMapData } from './route';

export const loadSiteMap: Loader<SiteMapData> = async ({ site }) => ({
  kind: 'ok',
  data: { sites: ALL_SITES.map((entry) => ({ name: entry.name, domain: entry.domain })) },
  head: { title: siteTitle('网站地图', site), description: `${site.seo_title}网站地图`, keywords: site.seo_keywords },
});

export default definePageLoaders(route, { siteMap: loadSiteMap });
