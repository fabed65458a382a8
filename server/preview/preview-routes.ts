/**
 * `GET /_preview` (the signed link from the CMS: sets the preview cookie, 303 to the page) and `GET
 * /_preview/exit` (clears it, 303 to the published page). Mounted only with PREVIEW_SECRET: without it both are
 * the site's 404. A link that fails a check is a 401 page saying which; one that cannot be checked against the
 * used links (Redis down) a 503 with Retry-After. Nothing here is cacheable or indexable.
 */
import type { Request, Response, Router } from 'express';
import express from 'express';
import { escapeHtml } from '../platform/html';
import type { Logger } from '../platform/logger';
import { PREVIEW_COOKIE, PREVIEW_EXIT_PATH, PREVIEW_PATH } from './contract';
import { PreviewLinkError, readPreviewLink } from './preview-link';
import { newPreviewSession, previewSessionOf, type PreviewSession } from './preview-session';
import { UsedLinksUnavailable, type UsedLinks } from './used-links';

export interface PreviewSettings {
  secret: string;
  usedLinks: UsedLinks;
  /** The cookie is Secure when readers reach the site over https. */
  secureCookies: boolean;
  logger: Logger;
}

const RETRY_AFTER_SECONDS = 5;

/** The preview this request is in (its cookie valid now), or null. */
export function previewOf(req: Request, secret: string | undefined): PreviewSession | null {
  if (secret === undefined) return null;
  const cookies = req.cookies as Record<string, string | undefined> | undefined;
  return previewSessionOf(cookies?.[PREVIEW_COOKIE], secret);
}

function neverStored(res: Response): Response {
  return res.setHeader('Cache-Control', 'private, no-store').setHeader('X-Robots-Tag', 'noindex');
}

/** A page of its own for the editor: why the link did not open the preview. */
function refusal(res: Response, status: 401 | 503, reason: string): void {
  const title = status === 401 ? '预览链接无效' : '暂时无法打开预览';
  const html =
    `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title></head>` +
    `<body><h1>${title}</h1><p>${escapeHtml(reason)}</p><p><a href="/">返回首页</a></p></body></html>`;
  neverStored(res).status(status).type('html').send(html);
}

function cookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
}

function queryOf(req: Request): URLSearchParams {
  return new URL(req.originalUrl, 'http://portal.invalid').searchParams;
}

/** A path of this site to go back to; anything else (another origin, `//host`) is home. */
function sitePathOf(path: string | null): string {
  return path !== null && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') ? path : '/';
}

async function openPreview(settings: PreviewSettings, req: Request, res: Response): Promise<void> {
  try {
    const link = readPreviewLink(queryOf(req), settings.secret);
    if (!(await settings.usedLinks.firstUse(link.signature))) throw new PreviewLinkError('该链接已使用过：请从内容管理系统重新打开预览');
    const session = newPreviewSession(settings.secret);
    res.cookie(PREVIEW_COOKIE, session.value, { ...cookieOptions(settings.secureCookies), maxAge: session.maxAgeSeconds * 1000 });
    neverStored(res).redirect(303, link.path);
  } catch (error) {
    if (error instanceof PreviewLinkError) return refusal(res, 401, error.message);
    if (!(error instanceof UsedLinksUnavailable)) throw error;
    settings.logger.warn({ err: error }, 'preview link not opened: the used links cannot be read');
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    refusal(res, 503, '暂时无法核对预览链接，请几秒后再试');
  }
}

export function previewRoutes(settings: PreviewSettings): Router {
  const router = express.Router();
  router.get(PREVIEW_PATH, (req, res, next) => {
    openPreview(settings, req, res).catch(next);
  });
  router.get(PREVIEW_EXIT_PATH, (req, res) => {
    res.clearCookie(PREVIEW_COOKIE, cookieOptions(settings.secureCookies));
    neverStored(res).redirect(303, sitePathOf(queryOf(req).get('path')));
  });
  return router;
}
