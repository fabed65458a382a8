/**
 * What client navigations call instead of fetching a whole document: the next page's state (its loader runs
 * here, through the data cache) and the data of suspense blocks; and where the browser reports a page its error
 * boundary caught (logged, nothing else).
 */
import express, { Router, type Response } from 'express';
import { z } from 'zod';
import { CLIENT_ERROR_ENDPOINT, CLIENT_ERROR_TEXT_LIMIT, type ClientErrorReport } from '../../shared/client-error';
import { PAGE_DATA_ENDPOINT, RESOURCE_ENDPOINT, type PageDataResponse } from '../../shared/app-state';
import { isResourceName, RESOURCES } from '../../shared/resources';
import { resolveSite } from '../../shared/sites';
import type { AccountFor } from '../auth/reader-account';
import { PRIVATE_NO_STORE } from '../cache/headers';
import type { Logger } from '../platform/logger';
import { CallRecorder, type ContentService, type OnCallFailure } from '../upstream/content-service';
import type { ContentApi } from '../../shared/content-api';
import { addressOf } from '../../shared/page-address';
import { canonicalSpelling } from '../edge/canonical-target';
import { classifyRequest, mobileDetailTarget } from '../edge/classify';
import { requestHeadOf } from '../edge/page-request';
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
      // The edge's rule for a document's target (canonical-target.ts), which 301s what this answers as a redirect.
      const spelling = canonicalSpelling(asked);
      if (spelling.kind === 'invalid') {
        res.status(400).json({ error: 'query parameter "path" is not a valid path' });
        return;
      }
      if (spelling.kind === 'spelt' && spelling.path !== asked) {
        res.setHeader('Cache-Control', 'no-cache');
        res.json({ kind: 'redirect', location: spelling.path + target.search });
        return;
      }
      const address = addressOf(target.pathname, target.searchParams);
      // Classified as a document request for the same path is (classify.ts): the same reader, the same device.
      const request = classifyRequest({ address, params: target.searchParams }, requestHeadOf(req, options.previewSecret));
      // A phone following a link to an article goes to the mobile site, as its typed URL would (a document load).
      if (request.varyUserAgent) res.vary('User-Agent');
      const preview = request.audience === 'preview';
      const mobile = mobileDetailTarget(address.match, request, options.mobileDetailUrl, options.previewSecret);
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
      const preview = requestHeadOf(req, options.previewSecret).preview;
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
