/**
 * What the page handler's units share: its dependencies, how a document's state is built, and how a render is
 * set up (render-document.tsx's options). Made once per handler; each unit (serve-cached.ts, render-miss.ts,
 * render-whole.ts, error-page.ts) takes it as its first argument.
 */
import type { ImagePipeline } from '../../shared/image-pipeline';
import type { Request, Response } from 'express';
import type { AppState, PublicUser } from '../../shared/app-state';
import type { ContentApi } from '../../shared/content-api';
import { RESOURCES } from '../../shared/resources';
import type { SiteConfig } from '../../shared/sites';
import { createResourceStore } from '../../shared/ui/data/resource-store';
import type { PageCache, PageSources } from '../cache/page-cache';
import type { PolicySource } from '../cache/runtime-policy';
import type { AccountFor } from '../auth/reader-account';
import type { Logger } from '../platform/logger';
import type { RenderOutcome } from '../platform/metrics';
import type { AccountSession } from '../upstream/account-service';
import type { CallRecorder, ContentService } from '../upstream/content-service';
import type { Assets } from './assets';
import { ResourceLoads } from './downstream-caching';
import type { ClassifiedRequest } from '../edge/page-request';
import { createStateBuilder, type BuiltState, type DocumentState, type StateInput } from './page-state';
import type { RenderOptions } from './render-document';
import type { HeldHeads } from '../edge/page-response';

export interface PageHandlerDeps {
  content: ContentService;
  pageCache: PageCache;
  /** TTL/grace per page kind, changeable at run time. */
  cachePolicy: PolicySource;
  assets: Assets;
  /** The heads held pages are written with, shared with the hit path in front of Express (edge/page-response.ts). */
  heads: HeldHeads;
  logger: Logger;
  renderTimeoutMs: number;
  publicProtocol: 'http' | 'https';
  /** The visit statistics script of a site's host (docs/product.md §9), or null when it has no statistics id. */
  visitStatsScript: (site: SiteConfig) => string | null;
  /** The signed-in reader's account calls (null for anonymous requests). */
  accountFor: AccountFor;
  /** Where pages inside WeChat load the JS-SDK from (WECHAT_JSSDK_URL). */
  wechatJsSdkUrl: string;
  /** Where pictures are resized (server/images/pipeline.ts): every page's `srcset` goes through it. */
  images: ImagePipeline;
  /** Whether WeChat sign-in is configured: the login dialog shows the QR page, or says sign-in is not open. */
  signInAvailable: boolean;
  /** A streamed render finished (metrics): its route id, seconds from its loaders to the document's end, outcome. */
  onRender?: (route: string, seconds: number, outcome: RenderOutcome) => void;
  /** PREVIEW_SECRET: a request with a valid preview cookie is an editor's preview (docs/preview.md). */
  previewSecret?: string;
  /** Where a phone opening an article goes (MOBILE_DETAIL_URL, docs/product.md §2). */
  mobileDetailUrl: string;
  /** Sets the reader cookie (the public profile page script shows the menu from) on a private response. */
  rememberReader: (req: Request, res: Response, user: PublicUser) => void;
}

/** One document to render: the page request, the nonce its scripts carry, and for whom. */
export interface DocumentRequest {
  page: ClassifiedRequest;
  nonce: string;
  /** Every block in place before the first byte (crawlers, re-renders for the cache). */
  waitForAll: boolean;
  /** The signed-in reader; always null for a render that may be stored in the page cache. */
  user: PublicUser | null;
  /** The signed-in reader's account calls; null whenever user is. */
  account: AccountSession | null;
  /** An editor's preview (docs/preview.md): drafts, rendered for this request alone and never stored. */
  preview?: boolean;
}

export interface PageContext {
  deps: PageHandlerDeps;
  buildState: (input: StateInput) => Promise<BuiltState>;
}

export function createPageContext(deps: PageHandlerDeps): PageContext {
  const buildState = createStateBuilder({
    content: deps.content,
    logger: deps.logger,
    buildId: deps.assets.buildId,
    wechatJsSdkUrl: deps.wechatJsSdkUrl,
    images: deps.images,
    signInAvailable: deps.signInAvailable,
  });
  return { deps, buildState };
}

/** The state of the document `request` asks for, its calls recorded into `recorder`. */
export function stateFor(context: PageContext, request: DocumentRequest, content: ContentApi, recorder: CallRecorder): Promise<BuiltState> {
  return context.buildState({ page: request.page, content, recorder, user: request.user, account: request.account, preview: request.preview === true });
}

/** The resource loads of one render: counted, so the headers can tell whether any block is still loading. */
export function resourceLoads(content: ContentApi): ResourceLoads {
  return new ResourceLoads((name) => RESOURCES[name](content));
}

/**
 * The site's own domain and the page's address (only the query parameters the page reads: ?page=2 stays, utm_*
 * go), or the one path the page names for itself when another answers it too (home at /home).
 */
function canonicalUrlOf(request: DocumentRequest, state: AppState, protocol: string): string {
  return `${protocol}://${request.page.site.domain}${state.page.head.canonicalPath ?? state.page.path}`;
}

export function renderOptions(context: PageContext, { state, router }: DocumentState, request: DocumentRequest, loads: ResourceLoads): RenderOptions {
  const { deps } = context;
  return {
    state,
    router,
    nonce: request.nonce,
    resources: createResourceStore(loads.load),
    styles: deps.assets.styles,
    preloads: deps.assets.preloads,
    entryScript: deps.assets.entryScript,
    canonicalUrl: canonicalUrlOf(request, state, deps.publicProtocol),
    visitStatsScript: deps.visitStatsScript(request.page.site),
    waitForAll: request.waitForAll,
    timeoutMs: deps.renderTimeoutMs,
    onRenderError: (error: unknown) => deps.logger.error({ err: error, path: request.page.address.pathname }, 'render error'),
  };
}

/**
 * A page depends on every call it made, on its site, and on its kind (purge `page:detail` drops every article page).
 * Each once: the site's own calls already carry `site:{id}`, and a store sends every tag's index commands.
 */
export function pageTags(recorder: CallRecorder, site: SiteConfig, page: string): string[] {
  return [...new Set([...recorder.tags, `site:${site.id}`, `page:${page}`])];
}

/** What a page rendered under `recorder` is stored with: its tags, the answers it read, when it began. */
export function pageSources(recorder: CallRecorder, site: SiteConfig, page: string): PageSources {
  return { tags: pageTags(recorder, site, page), reads: [...recorder.reads], startedAt: recorder.readsFrom };
}
