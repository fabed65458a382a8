/**
 * What is around a page rather than its content (ads, site SEO, grey mode): `decoration`, so a failure renders
 * the block empty and never turns the page into a 503 (docs/cache.md).
 * Each call says its cache key, policy family, tags, upstream request, schema and what 'not found' yields
 * (call.ts); content-service.ts runs them through the data cache.
 */
import type { ContentApi, HomeAdSlot, SiteInfo } from '../../../shared/content-api';
import type { AdGroups, GreyMode } from '../../../shared/types/entities';
import type { RawAdGroups, RawAdSlot, RawGreyMode, RawSiteInfo } from '../wire';
import { RawAdGroupsSchema, RawAdSlotsSchema, RawGreyModeSchema, RawSiteInfoSchema } from '../wire';
import { STORED } from '../entity-schemas';
import * as normalise from '../normalise';
import type { Call, CallSpec } from './call';

export type DecorationApi = Pick<ContentApi, 'adGroups' | 'homeAdSlots' | 'siteInfo' | 'greyMode'>;

/** The grey-mode flag: a call of its own, since the flag watch (server/upstream/flag-watch.ts) reloads it too. */
export const GREY_MODE_CALL: CallSpec<RawGreyMode, GreyMode> = {
  family: 'greyMode',
  key: 'grey_mode',
  tags: ['grey'],
  request: { method: 'GET', path: '/api/common/grey_mode', call: 'grey_mode' },
  schema: RawGreyModeSchema,
  stored: STORED.greyMode,
  normalise: normalise.greyMode,
  empty: 'off',
  decoration: true,
};

export function decorationCalls(call: Call): DecorationApi {
  return {
    adGroups: (catid) =>
      call<RawAdGroups, AdGroups>({
        family: 'ads',
        key: `ad_top:${catid}`,
        tags: ['ads', `cat:${catid}`],
        request: { method: 'GET', path: `/api/ad/top?catid=${catid}`, call: 'ad_top' },
        schema: RawAdGroupsSchema,
        stored: STORED.adGroups,
        normalise: normalise.adGroups,
        empty: normalise.EMPTY_AD_GROUPS,
        decoration: true,
      }),
    homeAdSlots: (catid) =>
      call<RawAdSlot[], HomeAdSlot[]>({
        family: 'ads',
        key: `ad_slots:${catid}`,
        tags: ['ads', `cat:${catid}`],
        request: { method: 'GET', path: `/api/ad/list_by_column_id?catid=${catid}`, call: 'ad_list_by_column' },
        schema: RawAdSlotsSchema,
        stored: STORED.homeAdSlots,
        normalise: normalise.homeAdSlots,
        empty: [],
        decoration: true,
      }),
    siteInfo: (siteId) =>
      call<RawSiteInfo, SiteInfo | null>({
        family: 'site',
        key: `site_info:${siteId}`,
        tags: [`site:${siteId}`],
        request: { method: 'GET', path: `/api/common/get_site_info?site_id=${siteId}`, call: 'site_info' },
        schema: RawSiteInfoSchema,
        stored: STORED.siteInfo,
        normalise: (raw) => ({
          seo: { title: raw.seo.seo_title, keywords: raw.seo.seo_keywords, description: raw.seo.seo_description },
          friendlyLinks: raw.friendly_link_list.map((link) => ({ name: link.name, link: link.link })),
        }),
        empty: null,
        decoration: true,
      }),
    greyMode: () => call(GREY_MODE_CALL),
  };
}
