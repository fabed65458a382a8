/**
 * What client navigations call instead of fetching a whole document: the next page's state (its loader runs
 * here, through the data cache) and the data of suspense blocks; and where the browser reports a page its error
 * boundary caught (logged, nothing else).
 */
import express, { Router, type Response } from 'express';
import { z } from 'zod';
import { CLIENT_ERROR_ENDPOINT, CLIENT_ERROR_TEXT_LIMIT, type ClientErrorReport } from '../../shared/client-error';
import { PAGE_DATA_ENDPOINT, RESOURCE_ENDPOINT, type PageDataResponse } from '../../shared/app-state';
import { classifyPath } from '../../shared/canonical-path';
import { isResourceName, RESOURCES } from '../../shared/resources';
import { routeSpelling } from '../../shared/routes';
import { resolveSite } from '../../shared/sites';
import type { AccountFor } from '../auth/reader-account';
import { PRIVATE_NO_STORE } from '../cache/headers';
import type { Logger } from '../platform/logger';
import { CallRecorder, type ContentService, type OnCallFailure } from '../upstream/content-service';
import type { ContentApi } from '../../shared/content-api';
import { previewOf } from '../preview/preview-routes';
import { addressOf } from '../../shared/page-address';
import { variesByUserAgent } from '../edge/classify';
import { mobileDetailTarget } from './mobile-redirect';
import { pageDataFailure, unixNow } from './page-status';
import { PageLoad, routePage } from './page-router';

const MAX_PATH_LENGTH = 2048;

/** A same-site path only: '/x', never '//host' or a scheme; parsed against a fixed origin. */
function parseTargetPath(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length > MAX_PATH_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  try {
    return new URL(value, 'http://portal.invalid');
  } catch {
    return null;
  }
}

/** A report as the browser sends it (shared/ui/lib/report-error.ts): anything else is a 400. */
const clientErrorReportSchema: z.ZodType<ClientErrorReport> = z.strictObject({
  path: z.string().startsWith('/').max(CLIENT_ERROR_TEXT_LIMIT),
  message: z.string().max(CLIENT_ERROR_TEXT_LIMIT),
  stack: z.string().max(CLIENT_ERROR_TEXT_LIMIT).optional(),
});

/** A report is a few kilobytes at most (three texts of 2,000 characters, UTF-8). */
const CLIENT_ERROR_BODY_LIMIT = '32kb';

export interface DataRoutesOptions {
  /** Where a phone opening an article goes (MOBILE_DETAIL_URL): a client navigation is sent there too. */
  mobileDetailUrl: string;
  /** PREVIEW_SECRET: a navigation in an editor's preview reads drafts (docs/preview.md). */
  previewSecret?: string;
}

/** The content calls of one request: drafts past the data cache in an editor's preview, the cached calls otherwise. */
function contentFor(content: ContentService, recorder: CallRecorder, preview: boolean, onFailure: OnCallFailure = 'empty'): ContentApi {
  return preview ? content.forPreview(recorder, onFailure) : content.forRequest(recorder, onFailure);
}

/** An answer made for a preview is the editor's alone and never indexed; one a signed-in reader or a failure shaped, private. */
function cachingOf(res: Response, preview: boolean, reusable: boolean): void {
  res.setHeader('Cache-Control', reusable && !preview ? 'no-cache' : PRIVATE_NO_STORE);
  if (preview) res.setHeader('X-Robots-Tag', 'noindex');
}

export function dataRoutes(content: ContentService, logger: Logger, accountFor: AccountFor, options: DataRoutesOptions): Router {
  const router = Router();

  router.get(PAGE_DATA_ENDPOINT, async (req, res, next) => {
    try {
      const target = parseTargetPath(req.query.path);
      if (!target) {
        res.status(400).json({ error: 'query parameter "path" must be a site path starting with /' });
        return;
      }
      // Another spelling of a page's path is that page: the client follows the redirect (replacing the entry).
      const asked = String(req.query.path).split(/[?#]/, 1)[0] ?? '';
      const spelling = classifyPath(asked);
      if (spelling.kind === 'invalid') {
        res.status(400).json({ error: 'query parameter "path" is not a valid path' });
        return;
      }
      // The page's own spelling of its params too (routeSpelling), as the edge 301s it.
      const spelt = spelling.kind === 'other' ? spelling.path : asked;
      const params = routeSpelling(spelt);
      const canonical = params.kind === 'respelt' ? params.path : spelt;
      if (canonical !== asked && params.kind !== 'not-a-page') {
        res.setHeader('Cache-Control', 'no-cache');
        res.json({ kind: 'redirect', location: canonical + target.search });
        return;
      }
      const address = addressOf(target.pathname, target.searchParams);
      // A phone following a link to an article goes to the mobile site, as its typed URL would (a document load).
      if (variesByUserAgent(address.match)) res.vary('User-Agent');
      const preview = previewOf(req, options.previewSecret) !== null;
      const mobile = mobileDetailTarget(address.match, req.headers['user-agent'], options.mobileDetailUrl, preview ? options.previewSecret : undefined);
      if (mobile) {
        res.setHeader('Cache-Control', PRIVATE_NO_STORE);
        res.json({ kind: 'document', location: mobile });
        return;
      }
      const recorder = new CallRecorder();
      const account = accountFor(req, res);
      const api = contentFor(content, recorder, preview, 'throw');
      // The flag an open tab follows (its document's layout is not sent again): read beside the page's loaders.
      const [routed, greyMode] = await Promise.all([
        routePage(
          new PageLoad({
            site: resolveSite(req.headers.host),
            address,
            content: api,
            pageCalls: recorder,
            now: unixNow(),
            account,
            onLoaderError: pageDataFailure(logger, 'loader failed', target.pathname),
          }),
        ),
        api.greyMode(),
      ]);
      const answer: PageDataResponse =
        routed.kind === 'page'
          ? { kind: 'page', page: { ...routed.page, greyMode } }
          : { kind: 'redirect', location: routed.location, ...(routed.permanent ? { permanent: true } : {}) };
      // A signed-in reader's navigation may carry their own lists, and an answer built on a failed call or an
      // error is not one to reuse: neither is kept by any cache.
      const status = answer.kind === 'page' ? answer.page.status : 200;
      cachingOf(res, preview, !account && !recorder.degraded && status === 200);
      res.setHeader('X-Cache', recorder.summary);
      res.status(status).json(answer);
    } catch (error) {
      next(error);
    }
  });

  router.get(`${RESOURCE_ENDPOINT}/:name`, async (req, res, next) => {
    try {
      const { name } = req.params;
      if (!isResourceName(name)) {
        res.status(404).json({ error: `unknown resource "${name}"` });
        return;
      }
      const recorder = new CallRecorder();
      const preview = previewOf(req, options.previewSecret) !== null;
      const value = await RESOURCES[name](contentFor(content, recorder, preview));
      cachingOf(res, preview, !recorder.degraded);
      res.setHeader('X-Cache', recorder.summary);
      res.json(value);
    } catch (error) {
      next(error);
    }
  });

  router.post(CLIENT_ERROR_ENDPOINT, express.json({ limit: CLIENT_ERROR_BODY_LIMIT }), (req, res) => {
    // JSON only (express.json reads nothing else): a cross-site form cannot post one without a preflight.
    const report = clientErrorReportSchema.safeParse(req.body);
    if (!report.success) {
      res.status(400).json({ error: 'a client error report is {"path": "/…", "message": "…", "stack"?: "…"}, each at most 2000 characters' });
      return;
    }
    logger.warn({ clientError: report.data, ua: req.headers['user-agent'] }, 'client error');
    res.status(204).end();
  });

  return router;
}
