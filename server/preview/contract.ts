/**
 * The editors' preview as the CMS and its content API see it (docs/preview.md): the signed link the CMS opens,
 * and the header every content call of a preview carries so the content API answers with drafts.
 */
import { PREVIEW_EXIT } from '../../shared/preview';

export const PREVIEW_PATH = '/_preview';
export const PREVIEW_EXIT_PATH = PREVIEW_EXIT;
/** Sent on every content call made for a preview; the content API then serves drafts where an article has one. */
export const PREVIEW_HEADER = 'x-cms-preview';
export const PREVIEW_HEADER_VALUE = 'drafts';
/** How long a signed link may be used after the CMS made it. */
export const PREVIEW_LINK_SECONDS = 300;
/** How long a preview lasts once opened (the cookie's Max-Age and its signed expiry). */
export const PREVIEW_SESSION_SECONDS = 3600;
export const PREVIEW_COOKIE = 'portal_preview';
