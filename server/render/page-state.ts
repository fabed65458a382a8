/**
 * The state a document is rendered from (shared/app-state.ts): the page (React Router's query decides it and its
 * status, page-router.ts), the layout around it, the site and the reader. The page's own calls are recorded apart from the
 * layout's, so 'the page's own data is missing' (a 503) can be told from 'the menu is missing' (an empty menu).
 */
import type { ImagePipeline } from '../../shared/image-pipeline';
import type { StaticHandlerContext } from 'react-router-dom';
import type { AppState, PublicUser } from '../../shared/app-state';
import type { ContentApi } from '../../shared/content-api';
import type { LayoutData } from '../../shared/app-state';
import { loadLayout } from '../pages/layout';
import { isMainSite, type SiteConfig } from '../../shared/sites';
import { loadPage } from '../../shared/pages/registry';
import type { Logger } from '../platform/logger';
import type { AccountSession } from '../upstream/account-service';
import { CallRecorder, type ContentService } from '../upstream/content-service';
import type { PageRequest } from '../edge/page-request';
import { pageDataFailure, unixNow } from './page-status';
import { PageLoad, routePage } from './page-router';

export interface PageStateDeps {
  content: ContentService;
  logger: Logger;
  buildId: string;
  wechatJsSdkUrl: string;
  images: ImagePipeline;
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

/** A document's state and React Router's context of its page, or where the page's path redirects. */
export interface DocumentState {
  state: AppState;
  router: StaticHandlerContext;
}

export type BuiltState = DocumentState | { redirect: string; permanent?: boolean };

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
    const [routed, layout] = await Promise.all([
      routePage(
        new PageLoad({
          site,
          address,
          // The page's own data: a failed call makes the page a 503, never an empty page or a 404.
          content: input.preview ? deps.content.forPreview(pageCalls, 'throw') : deps.content.forRequest(pageCalls, 'throw'),
          pageCalls,
          now: unixNow(),
          account,
          onLoaderError: pageDataFailure(logger, 'loader failed', address.pathname),
        }),
      ),
      layoutOf(site, input.content),
    ]);
    input.recorder.absorb(pageCalls);
    if (routed.kind === 'redirect') return { redirect: routed.location, ...(routed.permanent ? { permanent: true } : {}) };
    const { page, router } = routed;
    if (page.page !== 'not-found' && page.page !== 'error') await loadPage(page.page);
    // The CMS ended the reader's token while the page loaded: the session is gone, so the page is a visitor's.
    const user = account?.signedOut ? null : input.user;
    const state: AppState = {
      buildId: deps.buildId,
      site: publicSite(site),
      user,
      wechatJsSdkUrl: deps.wechatJsSdkUrl,
      images: deps.images,
      signInAvailable: deps.signInAvailable,
      layout,
      page,
      preview: input.preview === true,
    };
    return { state, router };
  };
}
