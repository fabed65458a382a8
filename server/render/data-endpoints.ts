/**
 * What client navigations call instead of fetching a whole document: the next page's state (its loader runs
 * here, through the data cache) and the data of suspense blocks.
 */
import { Router } from 'express';
import { PAGE_DATA_ENDPOINT, RESOURCE_ENDPOINT } from '../../shared/app-state';
import { classifyPath } from '../../shared/canonical-path';
import { isResourceName, RESOURCES } from '../../shared/resources';
import { resolveSite } from '../../shared/sites';
import type { AccountFor } from '../auth/reader-account';
import { PRIVATE_NO_STORE } from '../cache/headers';
import type { Logger } from '../logger';
import { CallRecorder, type ContentService } from '../upstream/content-service';
import { addressOf } from '../../shared/page-address';
import { preparePage, unixNow } from './prepare-page';

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

export function dataRoutes(content: ContentService, logger: Logger, accountFor: AccountFor): Router {
  const router = Router();

  router.get(PAGE_DATA_ENDPOINT, async (req, res, next) => {
    try {
      const target = parseTargetPath(req.query.path);
      if (!target) {
        res.status(400).json({ error: 'query parameter "path" must be a site path starting with /' });
        return;
      }
      // Another spelling of a page's path is that page: the client follows the redirect (replacing the entry).
      const spelling = classifyPath(String(req.query.path).split(/[?#]/, 1)[0] ?? '');
      if (spelling.kind === 'invalid') {
        res.status(400).json({ error: 'query parameter "path" is not a valid path' });
        return;
      }
      if (spelling.kind === 'other') {
        res.setHeader('Cache-Control', 'no-cache');
        res.json({ kind: 'redirect', location: spelling.path + target.search });
        return;
      }
      const recorder = new CallRecorder();
      const account = accountFor(req, res);
      const answer = await preparePage({
        site: resolveSite(req.headers.host),
        address: addressOf(target.pathname, target.searchParams),
        content: content.forRequest(recorder, 'throw'),
        now: unixNow(),
        account,
        onLoaderError: (error) => logger.error({ err: error, path: target.pathname }, 'loader failed'),
      });
      // A signed-in reader's navigation may carry their own lists, and an answer built on a failed call or an
      // error is not one to reuse: neither is kept by any cache.
      const status = answer.kind === 'page' ? answer.page.status : 200;
      res.setHeader('Cache-Control', account || recorder.degraded || status !== 200 ? PRIVATE_NO_STORE : 'no-cache');
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
      const value = await RESOURCES[name](content.forRequest(recorder));
      res.setHeader('Cache-Control', recorder.degraded ? PRIVATE_NO_STORE : 'no-cache');
      res.setHeader('X-Cache', recorder.summary);
      res.json(value);
    } catch (error) {
      next(error);
    }
  });

  return router;
}
