/**
 * The state a document is rendered from (shared/app-state.ts): the page (prepare-page.ts decides it and its
 * status), the layout around it, the site and the reader. The page's own calls are recorded apart from the
 * layout's, so 'the page's own data is missing' (a 503) can be told from 'the menu is missing' (an empty menu).
 */
import type { AppState, PageState, PublicUser } from '../../shared/app-state';
import type { ContentApi } from '../../shared/content-api';
import type { LayoutData } from '../../shared/app-state';
import { loadLayout } from '../pages/layout';
import { isMainSite, type SiteConfig } from '../../shared/sites';
import { loadPage } from '../../shared/pages/registry';
import type { Logger } from '../logger';
import type { AccountSession } from '../upstream/account-service';
import { CallRecorder, type ContentService } from '../upstream/content-service';
import type { PageRequest } from './page-request';
import { pageDataFailure, preparePage, statusPage, UNAVAILABLE_MESSAGE, unixNow } from './prepare-page';

export interface PageStateDeps {
  content: ContentService;
  logger: Logger;
  buildId: string;
  wechatJsSdkUrl: string;
  signInAvailable: boolean;
}

export interface StateInput {
  page: PageRequest;
  /** The layout's calls (and, through `recorder`, the record of every call the document made). */
  content: ContentApi;
  recorder: CallRecorder;
  /** The signed-in reader; null for any render that may be stored. */
  user: PublicUser | null;
  account?: AccountSession | null;
  /** An editor's preview (docs/preview.md): the page's calls ask for drafts, past the data cache. */
  preview?: boolean;
}

export type BuiltState = AppState | { redirect: string; permanent?: boolean };

const EMPTY_LAYOUT = (site: SiteConfig): LayoutData => ({
  menu: [],
  banner: [],
  friendlyLinks: [],
  seo: { title: site.seo_title, keywords: site.seo_keywords, description: site.seo_description },
  greyMode: 'off',
});

function publicSite(site: SiteConfig): AppState['site'] {
  return { id: site.id, name: site.name, domain: site.domain, isMain: isMainSite(site) };
}

/**
 * Every call of the page's loader failed (none was answered, even from cache): the page has no data and the
 * upstream is down, so it is a 503 with Retry-After, not a 200 shell of empty blocks.
 */
export function unavailableIfNoData(site: SiteConfig, page: PageState, pageCalls: CallRecorder): PageState {
  if (page.status !== 200 || !pageCalls.degraded || pageCalls.states.length > 0) return page;
  return statusPage(site, page.path, 503, UNAVAILABLE_MESSAGE, page.now);
}

export function createStateBuilder(deps: PageStateDeps): (input: StateInput) => Promise<BuiltState> {
  const { logger } = deps;

  function layoutOf(site: SiteConfig, content: ContentApi): Promise<LayoutData> {
    const logFailure = pageDataFailure(logger, 'layout data failed');
    return loadLayout(site, content).catch((error: unknown) => {
      logFailure(error);
      return EMPTY_LAYOUT(site);
    });
  }

  return async function buildState(input: StateInput): Promise<BuiltState> {
    const { site, address } = input.page;
    const account = input.account ?? null;
    const pageCalls = new CallRecorder();
    const [prepared, layout] = await Promise.all([
      preparePage({
        site,
        address,
        // The page's own data: a failed call makes the page a 503, never an empty page or a 404.
        content: input.preview ? deps.content.forPreview(pageCalls, 'throw') : deps.content.forRequest(pageCalls, 'throw'),
        now: unixNow(),
        account,
        onLoaderError: pageDataFailure(logger, 'loader failed', address.pathname),
      }),
      layoutOf(site, input.content),
    ]);
    input.recorder.absorb(pageCalls);
    if (prepared.kind === 'redirect') return { redirect: prepared.location, ...(prepared.permanent ? { permanent: true } : {}) };
    const page = unavailableIfNoData(site, prepared.page, pageCalls);
    if (page.page !== 'not-found' && page.page !== 'error') await loadPage(page.page);
    // The CMS ended the reader's token while the page loaded: the session is gone, so the page is a visitor's.
    const user = account?.signedOut ? null : input.user;
    return {
      buildId: deps.buildId,
      site: publicSite(site),
      user,
      wechatJsSdkUrl: deps.wechatJsSdkUrl,
      signInAvailable: deps.signInAvailable,
      layout,
      page,
      preview: input.preview === true,
    };
  };
}
