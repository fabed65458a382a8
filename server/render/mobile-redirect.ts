/**
 * docs/product.md §2: on a mobile device, article detail goes to the mobile site with catid and id as query parameters.
 * The answer depends on the User-Agent, so detail responses say `Vary: User-Agent` and the redirect itself is
 * never stored by a shared cache; desktop readers keep getting the (cached) page.
 */
import type { Request, RequestHandler } from 'express';
import { signedMobileLink } from '../preview/preview-link';
import { findRoute, type RouteMatch } from '../../shared/routes';
import { isMobileUserAgent, variesByUserAgent } from '../edge/classify';

/**
 * Where a reader with this User-Agent is sent instead of the page `match` found: the mobile site's article for a
 * phone opening an article, else null. One rule for a document request (below) and for a client navigation's
 * page data (server/render/data-endpoints.ts), so following a link on a phone ends where typing the URL does.
 */
export function mobileDetailTarget(match: RouteMatch, userAgent: string | undefined, mobileDetailUrl: string, previewSecret?: string): string | null {
  if (!variesByUserAgent(match)) return null;
  const { catid, id } = match.params;
  if (!catid || !id || !isMobileUserAgent(userAgent)) return null;
  const target = new URL(mobileDetailUrl);
  target.searchParams.set('catid', catid);
  target.searchParams.set('id', id);
  // In an editor's preview the mobile site is asked for the draft too, by a link signed as the CMS signs its own.
  return previewSecret === undefined ? target.toString() : signedMobileLink(target, previewSecret);
}

/** `previewSecret`: the request is an editor's preview (its cookie checked), and the mobile link keeps it. */
export function mobileDetailRedirect(mobileDetailUrl: string, previewSecretOf: (req: Request) => string | undefined = () => undefined): RequestHandler {
  return (req, res, next) => {
    const match = findRoute(req.path);
    if (!variesByUserAgent(match)) return next();
    res.vary('User-Agent');
    const target = mobileDetailTarget(match, req.headers['user-agent'], mobileDetailUrl, previewSecretOf(req));
    if (!target) return next();
    res.setHeader('Cache-Control', 'private, no-store');
    res.redirect(302, target);
  };
}
