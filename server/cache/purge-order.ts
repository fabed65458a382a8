/**
 * A purge as its author asks for it (the publish hook's tags and URLs, the CLI's command line), read into
 * selectors with every tag and URL checked before anything is touched.
 */
import { siteOfKnownHost } from '../../shared/sites';
import type { UsedSignature } from './coherence';
import { PurgeInputError, urlSelector, validate, type PurgeSelector, type PurgeSpace } from './invalidation';
import type { PurgeRecord } from './purge-record';

export interface PurgeOrderInput {
  /** The CMS's id of the event, recorded with the purge. */
  event?: string;
  /** The hook call's signature (firstUse): carried with the purge, so every instance that applies it refuses it again. */
  signature?: UsedSignature;
  tags: readonly string[];
  urls: readonly string[];
  soft: boolean;
}

/** What `Purges.run` records of an order besides its selectors: who asked, from where, in their words. */
export type RunOrder = PurgeOrderInput & Pick<PurgeRecord, 'who' | 'source' | 'what'>;

/** Checks every tag and URL before anything is touched: a bad one is a PurgeInputError and changes nothing. */
export async function selectorsOf(order: PurgeOrderInput, space: PurgeSpace): Promise<PurgeSelector[]> {
  const byUrl = await Promise.all(order.urls.map((url) => urlSelector(url, strictSiteOf(url), true)));
  const selectors: PurgeSelector[] = [...order.tags.map((tag): PurgeSelector => ({ by: 'tag', tag })), ...byUrl];
  for (const selector of selectors) validate(selector, space);
  return selectors;
}

/** A purge URL's host must be one of the portal's sites: never read as the main site, which it would purge instead. */
function strictSiteOf(url: string): (host: string | undefined) => number {
  return (host) => {
    if (host === undefined)
      throw new PurgeInputError(`url ${JSON.stringify(url)}: give the whole address (https://www.qnnews.cn/about), the host picks the site`);
    const site = siteOfKnownHost(host);
    if (!site) throw new PurgeInputError(`url ${JSON.stringify(url)}: ${JSON.stringify(host)} is not one of the portal's sites`);
    return site.id;
  };
}
