/**
 * The pages a request ends on when it has no page of its own (a 404, the 503 of a page without its data, the 500
 * of a render that failed), built in one place, and how a page's failed data is logged.
 */
import type { PageHead, PageState, StatusPageState } from '../../shared/app-state';
import { TEXT } from '../../shared/constants';
import { ContentUnavailableError } from '../../shared/content-api';
import { siteTitle } from '../pages/helpers';
import type { SiteConfig } from '../../shared/sites';
import type { Logger } from '../platform/logger';
import type { CallRecorder } from '../upstream/content-service';

export const UNAVAILABLE_MESSAGE = '服务暂时不可用，请稍后再试';
/** A request the portal cannot serve as sent (a reader's browser shows it: Chinese, as every text a reader sees). */
export const BAD_REQUEST_MESSAGE = '请求有误';

/**
 * How a page's failed data is logged, once per page asked: a content call that could not be answered (the content
 * API down or refusing, which server/upstream/failure-log.ts tells per call family at its start, each minute and
 * its end) is a warning naming the call, with no stack; anything else is an error with its stack, a bug to read.
 */
export function pageDataFailure(logger: Logger, what: string, path?: string): (error: unknown) => void {
  return (error) => {
    if (error instanceof ContentUnavailableError) logger.warn({ call: error.call, path }, `${what}: a content call failed`);
    else logger.error({ err: error, path }, what);
  };
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

function siteHead(site: SiteConfig, title: string): PageHead {
  return { title: siteTitle(title, site), description: site.seo_description, keywords: site.seo_keywords };
}

/**
 * The one builder of the 404 and error pages' state, for every place a page ends on one: a route its loader
 * did not find, a loader that failed, a page with no data (503), a shell that failed to render (500).
 */
export function statusPage(site: SiteConfig, path: string, status: number, message: string | undefined, now: number): StatusPageState {
  return {
    path,
    routeId: null,
    page: status === 404 ? 'not-found' : 'error',
    params: {},
    status,
    data: null,
    head: siteHead(site, message ?? TEXT.notFound),
    now,
    ...(message ? { message } : {}),
  };
}

/**
 * Every call of the page's loader failed (none was answered, even from cache): the page has no data and the
 * upstream is down, so it is a 503 with Retry-After, not a 200 shell of empty blocks.
 */
export function unavailableIfNoData<T extends Pick<PageState, 'status' | 'path' | 'now'>>(
  site: SiteConfig,
  page: T,
  pageCalls: CallRecorder,
): T | StatusPageState {
  if (page.status !== 200 || !pageCalls.degraded || pageCalls.states.length > 0) return page;
  return statusPage(site, page.path, 503, UNAVAILABLE_MESSAGE, page.now);
}
