/**
 * Page requests: readers are served from the page cache when it holds the page (HIT, or STALE with a
 * background re-render); everything else is rendered by streaming SSR, and a clean anonymous 200 render is
 * stored as it streams. A signed-in reader gets the same shared page (their menu comes from the reader cookie,
 * their like/collect state after hydration); only a per-reader page is rendered for them, fresh and private.
 */
import type { Request, RequestHandler, Response } from 'express';
import { isbot } from 'isbot';
import type { AppState, PageState, PublicUser } from '../../shared/app-state';
import type { ContentApi } from '../../shared/content-api';
import { loadLayout, type LayoutData } from '../../shared/loaders/layout';
import { RESOURCES } from '../../shared/resources';
import { matchRoute } from '../../shared/routes';
import { pageAddress } from '../../shared/page-address';
import { isMainSite, resolveSite, type SiteConfig } from '../../shared/sites';
import { createResourceStore } from '../../client/data/resource-store';
import { loadPage } from '../../client/pages/registry';
import { PRIVATE_NO_STORE, sharedCacheControl, surrogateKey } from '../cache/headers';
import type { PageCache, PageLookup } from '../cache/page-cache';
import type { CachePolicy } from '../cache/entry';
import type { PolicySource } from '../cache/runtime-policy';
import type { AccountFor } from '../auth/reader-account';
import type { Logger } from '../logger';
import type { RenderOutcome } from '../metrics';
import { newNonce } from '../middleware/security';
import { hasReaderCookie, sessionOf } from '../session';
import type { AccountSession } from '../upstream/account-service';
import { CallRecorder, type ContentService } from '../upstream/content-service';
import { sendCachedPage, sendPage, type CachedState } from './cached-response';
import { lookupOnce } from './page-hits';
import type { Assets } from './assets';
import { bareErrorDocument } from './document';
import { maySharedCachesKeep, ResourceLoads } from './downstream-caching';
import { preparePage, UNAVAILABLE_MESSAGE } from './prepare-page';
import type { DocumentSink } from './render-document';
import { renderDocument } from './render-document';
import { searchFormRedirect } from './search-redirect';

export interface PageHandlerDeps {
  content: ContentService;
  pageCache: PageCache;
  /** TTL/grace per page kind, changeable at run time. */
  cachePolicy: PolicySource;
  assets: Assets;
  logger: Logger;
  renderTimeoutMs: number;
  publicProtocol: 'http' | 'https';
  /** The visit statistics script of a site's host (docs/product.md §9), or null when it has no statistics id. */
  visitStatsScript: (site: SiteConfig) => string | null;
  /** The signed-in reader's account calls (null for anonymous requests). */
  accountFor: AccountFor;
  /** Where pages inside WeChat load the JS-SDK from (WECHAT_JSSDK_URL). */
  wechatJsSdkUrl: string;
  /** Whether WeChat sign-in is configured: the login dialog shows the QR page, or says sign-in is not open. */
  signInAvailable: boolean;
  /** A streamed render finished (metrics): its route id, seconds from its loaders to the document's end, outcome. */
  onRender?: (route: string, seconds: number, outcome: RenderOutcome) => void;
  /** Sets the reader cookie (the public profile page script shows the menu from) on a private response. */
  rememberReader: (req: Request, res: Response, user: PublicUser) => void;
}

type Rerendered = { kind: 'ok'; html: string; tags: string[] } | { kind: 'unavailable' } | { kind: 'other' };

interface DocumentRequest {
  site: SiteConfig;
  url: URL;
  nonce: string;
  waitForAll: boolean;
  /** The signed-in reader; always null for a render that may be stored in the page cache. */
  user: PublicUser | null;
  /** The signed-in reader's account calls; null whenever user is. */
  account: AccountSession | null;
}

const EMPTY_LAYOUT = (site: SiteConfig): LayoutData => ({
  menu: [],
  banner: [],
  friendlyLinks: [],
  seo: { title: site.seo_title, keywords: site.seo_keywords, description: site.seo_description },
  greyMode: 'off',
});

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** The request's path and query, parsed against a fixed origin: the Host header never shapes a URL. */
export function requestUrl(req: Request): URL {
  return new URL(req.originalUrl, 'http://portal.invalid');
}

function publicSite(site: SiteConfig): AppState['site'] {
  return { id: site.id, name: site.name, domain: site.domain, isMain: isMainSite(site) };
}

/** The site's own domain and the page's address (only the query parameters the page reads: ?page=2 stays, utm_* go). */
function canonicalUrlOf(request: DocumentRequest, state: AppState, protocol: string): string {
  return `${protocol}://${request.site.domain}${state.page.path}`;
}

function serverTiming(parts: Record<string, number | string>): string {
  return Object.entries(parts)
    .map(([name, value]) => (typeof value === 'number' ? `${name};dur=${value.toFixed(1)}` : `${name};desc="${value}"`))
    .join(', ');
}

/** A page depends on every call it made, on its site, and on its kind (purge `page:detail` drops every article page). */
function pageTags(recorder: CallRecorder, site: SiteConfig, page: string): string[] {
  return [...recorder.tags, `site:${site.id}`, `page:${page}`];
}

export function createPageHandler(deps: PageHandlerDeps): RequestHandler {
  const { pageCache, logger } = deps;

  /**
   * The page's loader calls are recorded apart from the layout's, so 'the page's own data is missing' can be told
   * from 'the menu is missing'; both end up in `recorder`.
   */
  async function buildState(
    site: SiteConfig,
    url: URL,
    content: ContentApi,
    recorder: CallRecorder,
    user: PublicUser | null,
    account: AccountSession | null = null,
  ): Promise<AppState | { redirect: string }> {
    const now = unixNow();
    const pageRecorder = new CallRecorder();
    const [prepared, layout] = await Promise.all([
      preparePage({
        site,
        pathname: url.pathname,
        search: url.search,
        // The page's own data: a failed call makes the page a 503, never an empty page or a 404.
        content: deps.content.forRequest(pageRecorder, 'throw'),
        now,
        account,
        onLoaderError: (error) => logger.error({ err: error, path: url.pathname }, 'loader failed'),
      }),
      loadLayout(site, content).catch((error: unknown) => {
        logger.error({ err: error }, 'layout data failed');
        return EMPTY_LAYOUT(site);
      }),
    ]);
    recorder.absorb(pageRecorder);
    if (prepared.kind === 'redirect') return { redirect: prepared.location };
    const pageState = unavailableIfNoData(prepared.page, pageRecorder);
    const page = pageState.page;
    if (page !== 'not-found' && page !== 'error') await loadPage(page);
    // The CMS ended the reader's token while the page loaded: the session is gone, so the page is a visitor's.
    const reader = account?.signedOut ? null : user;
    return { buildId: deps.assets.buildId, site: publicSite(site), user: reader, wechatJsSdkUrl: deps.wechatJsSdkUrl, signInAvailable: deps.signInAvailable, layout, page: pageState };
  }

  function renderOptions(state: AppState, request: DocumentRequest, content: ContentApi, loads = new ResourceLoads((name) => RESOURCES[name](content))) {
    return {
      state,
      nonce: request.nonce,
      resources: createResourceStore(loads.load),
      styles: deps.assets.styles,
      preloads: deps.assets.preloads,
      entryScript: deps.assets.entryScript,
      canonicalUrl: canonicalUrlOf(request, state, deps.publicProtocol),
      visitStatsScript: deps.visitStatsScript(request.site),
      waitForAll: request.waitForAll,
      timeoutMs: deps.renderTimeoutMs,
      onRenderError: (error: unknown) => logger.error({ err: error, path: request.url.pathname }, 'render error'),
    };
  }

  /**
   * Every call of the page's loader failed (none was answered, even from cache): the page has no data and the
   * upstream is down, so it is a 503 with Retry-After, not a 200 shell of empty blocks.
   */
  function unavailableIfNoData(page: PageState, pageRecorder: CallRecorder): PageState {
    if (page.status !== 200 || !pageRecorder.degraded || pageRecorder.states.length > 0) return page;
    return {
      path: page.path,
      routeId: null,
      page: 'error',
      params: {},
      status: 503,
      data: null,
      head: { ...page.head, title: UNAVAILABLE_MESSAGE },
      now: page.now,
      message: UNAVAILABLE_MESSAGE,
    };
  }

  /**
   * Renders into a string (background refreshes, stale-if-error checks). 'ok' only for a clean, cacheable 200;
   * 'unavailable' when the upstream could not supply the page's data, so a held copy should be served instead.
   */
  async function renderToHtml(request: DocumentRequest): Promise<Rerendered> {
    const recorder = new CallRecorder();
    const content = deps.content.forRequest(recorder);
    const state = await buildState(request.site, request.url, content, recorder, request.user);
    if ('redirect' in state) return { kind: 'other' };
    if (state.page.status === 503) return { kind: 'unavailable' };
    if (state.page.status !== 200) return { kind: 'other' };
    const parts: Buffer[] = [];
    let failed = false;
    const sink: DocumentSink = {
      start: () => undefined,
      write: (chunk) => parts.push(Buffer.from(chunk)),
      end: () => undefined,
      shellFailed: () => {
        failed = true;
      },
    };
    const outcome = await renderDocument(renderOptions(state, request, content), sink);
    if (recorder.degraded) return { kind: 'unavailable' };
    if (failed || !outcome.clean) return { kind: 'other' };
    return { kind: 'ok', html: Buffer.concat(parts).toString('utf8'), tags: pageTags(recorder, request.site, state.page.page) };
  }

  function setSharedHeaders(res: Response, policy: CachePolicy, tags: Iterable<string>): void {
    res.setHeader('Cache-Control', sharedCacheControl(policy));
    const keys = surrogateKey(tags);
    if (keys) res.setHeader('Surrogate-Key', keys);
  }

  function sendCached(req: Request, res: Response, cached: PageLookup, state: CachedState, ageSeconds: number, policy: CachePolicy): void {
    sendCachedPage(req, res, cached, state, ageSeconds, policy, String(res.locals.nonce));
  }

  async function sendErrorDocument(res: Response, request: DocumentRequest, content: ContentApi, status: number): Promise<void> {
    const base = await buildState(request.site, new URL('/', request.url), content, new CallRecorder(), request.user).catch(() => null);
    const page: PageState = {
      path: pageAddress(request.url.pathname, request.url.searchParams),
      routeId: null,
      page: 'error',
      params: {},
      status,
      data: null,
      head: { title: 'Error', description: '', keywords: '' },
      now: unixNow(),
    };
    const fallback = () => {
      if (!res.headersSent) res.status(status).type('html').setHeader('Cache-Control', PRIVATE_NO_STORE).send(bareErrorDocument(status, 'Error'));
    };
    if (!base || 'redirect' in base) return fallback();
    const sink: DocumentSink = {
      start: (code) => {
        res.status(code).type('html');
        res.setHeader('Cache-Control', PRIVATE_NO_STORE);
      },
      write: (chunk) => res.write(chunk),
      end: () => res.end(),
      shellFailed: fallback,
    };
    await renderDocument(renderOptions({ ...base, page }, { ...request, waitForAll: true }, content), sink);
  }

  async function renderFresh(req: Request, res: Response, request: DocumentRequest, cacheKey: string | null): Promise<void> {
    const started = performance.now();
    const recorder = new CallRecorder();
    const content = deps.content.forRequest(recorder);
    const state = await buildState(request.site, request.url, content, recorder, request.user, request.account);
    if ('redirect' in state) {
      res.redirect(302, state.redirect);
      return;
    }
    const capture = cacheKey !== null && state.page.status === 200 ? ([] as Buffer[]) : null;
    const loads = new ResourceLoads((name) => RESOURCES[name](content));
    let shellError: unknown = null;
    const storeIfCacheable = async (clean: boolean): Promise<void> => {
      if (!capture || !cacheKey || !clean || recorder.degraded) return;
      const html = Buffer.concat(capture).toString('utf8');
      const tags = pageTags(recorder, request.site, state.page.page);
      try {
        const page = await pageCache.compress(html, request.nonce);
        // Issued before the response ends: the next request on this instance queues behind this write on the
        // same Redis connection, so it finds the page.
        pageCache
          .put(cacheKey, deps.cachePolicy.page(state.page.page), page, tags)
          .catch((error: unknown) => logger.warn({ err: error, key: cacheKey }, 'page store failed'));
      } catch (error) {
        logger.warn({ err: error, key: cacheKey }, 'page compression failed');
      }
    };
    const sink: DocumentSink = {
      start: (status) => {
        res.status(status).type('html');
        res.setHeader('X-Cache', cacheKey ? 'MISS' : 'PASS');
        const shared = maySharedCachesKeep({ cacheable: cacheKey !== null, status, degraded: recorder.degraded, resourcesSettled: loads.settled });
        if (shared) setSharedHeaders(res, deps.cachePolicy.page(state.page.page), pageTags(recorder, request.site, state.page.page));
        else res.setHeader('Cache-Control', PRIVATE_NO_STORE);
        res.setHeader(
          'Server-Timing',
          serverTiming({ cache: cacheKey ? 'MISS' : 'PASS', upstream: recorder.upstreamMs, render: performance.now() - started }),
        );
        if (status === 503) res.setHeader('Retry-After', '30');
      },
      write: (chunk) => {
        res.write(chunk);
        capture?.push(Buffer.from(chunk));
      },
      end: (clean) => {
        void storeIfCacheable(clean).finally(() => res.end());
      },
      shellFailed: (error) => {
        shellError = error;
      },
    };
    const rendered = await renderDocument(renderOptions(state, request, content, loads), sink);
    // The access log's upstream time: what this request's loaders waited for (cached calls cost nothing).
    res.locals.upstreamMs = Math.round(recorder.upstreamMs * 10) / 10;
    const outcome: RenderOutcome = shellError ? 'shell-error' : rendered.aborted ? 'aborted' : rendered.clean ? 'clean' : 'error';
    deps.onRender?.(String(res.locals.metricsRoute ?? 'other'), (performance.now() - started) / 1000, outcome);
    if (!shellError) return;
    logger.error({ err: shellError, path: request.url.pathname }, 'shell failed; sending the error page');
    await sendErrorDocument(res, request, content, 500);
  }

  /**
   * Past grace: render again (whole, not streamed, so a failure can still fall back). Data missing upstream →
   * the held copy is served (stale-if-error); a clean render → sent and stored; anything else (the page is
   * now a 404, say) → the normal streaming path decides.
   */
  async function serveExpired(
    req: Request,
    res: Response,
    request: DocumentRequest,
    key: string,
    policy: CachePolicy,
    cached: PageLookup,
    age: number,
  ): Promise<void> {
    const rendered = await renderToHtml({ ...request, waitForAll: true });
    if (rendered.kind === 'unavailable') {
      logger.warn({ key, age }, 'upstream unavailable: serving an expired page (stale-if-error)');
      sendCached(req, res, cached, 'STALE', age, policy);
      return;
    }
    if (rendered.kind === 'other') {
      await renderFresh(req, res, request, key);
      return;
    }
    const page = await pageCache.store(key, policy, rendered.html, request.nonce, rendered.tags);
    res.setHeader('X-Cache', 'MISS');
    res.setHeader('ETag', page.etag);
    setSharedHeaders(res, policy, rendered.tags);
    res.setHeader('Server-Timing', serverTiming({ cache: 'MISS' }));
    // The stored page holds this request's nonce, the one in its CSP header.
    sendPage(req, res, page, String(res.locals.nonce));
  }

  return async (req, res, next) => {
    try {
      const site = resolveSite(req.headers.host);
      const url = requestUrl(req);
      const searchTarget = searchFormRedirect(url);
      if (searchTarget) {
        res.redirect(302, searchTarget);
        return;
      }
      const match = matchRoute(url.pathname);
      // For metrics: a bounded route label (the route table id), and the site the cache result belongs to.
      res.locals.metricsRoute = match.kind === 'page' ? match.route.id : match.kind;
      res.locals.siteId = site.id;
      if (match.kind === 'redirect') {
        res.redirect(302, match.location);
        return;
      }
      const waitForAll = isbot(req.headers['user-agent'] ?? '');
      const signedIn = sessionOf(req);
      // A per-reader page, or a session from before the reader cookie (which gets it now, on a private render
      // showing the menu, so its next pages come from the shared cache); any other page is the shared one.
      const perReader = match.kind === 'page' && match.route.perReader === true;
      if (signedIn && (perReader || !hasReaderCookie(req))) {
        if (!perReader) deps.rememberReader(req, res, signedIn.session.user);
        // Only the public profile goes into the render; the token stays in the session store.
        const { user_id, nickname, avatar } = signedIn.session.user;
        const user = { user_id, nickname, avatar };
        await renderFresh(req, res, { site, url, nonce: String(res.locals.nonce), waitForAll, user, account: deps.accountFor(req, res) }, null);
        return;
      }
      const request: DocumentRequest = { site, url, nonce: String(res.locals.nonce), waitForAll, user: null, account: null };
      const key = pageCache.keyFor(site.id, url.pathname, url.searchParams, match.kind === 'page' ? (match.route.query ?? []) : []);
      const cached = await lookupOnce(req, key, pageCache);
      if (!cached) {
        await renderFresh(req, res, request, key);
        return;
      }
      const age = Math.max(0, Math.floor((Date.now() - cached.storedAt) / 1000));
      const policy = deps.cachePolicy.page(match.kind === 'page' ? (match.route.page ?? '') : '');
      if (cached.freshness === 'expired') {
        await serveExpired(req, res, request, key, policy, cached, age);
        return;
      }
      sendCached(req, res, cached, cached.freshness === 'fresh' ? 'HIT' : 'STALE', age, policy);
      if (cached.freshness === 'stale') {
        const refreshNonce = newNonce();
        pageCache.refresh(
          key,
          async () => {
            const rendered = await renderToHtml({ site, url, nonce: refreshNonce, waitForAll: true, user: null, account: null });
            if (rendered.kind === 'ok') await pageCache.store(key, policy, rendered.html, refreshNonce, rendered.tags);
          },
          (error) => logger.error({ err: error, key }, 'background page refresh failed'),
        );
      }
    } catch (error) {
      next(error);
    }
  };
}
