/** /siteMap: the layout's menu and every site of the portal. */
import { definePage, fixed } from '../define';

export interface SiteMapData {
  sites: Array<{ name: string; domain: string }>;
}

export default definePage<SiteMapData>()('siteMap', [fixed('siteMap', '/siteMap', { layout: 'siteMap' })]);
