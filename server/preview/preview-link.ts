/**
 * The signed link the CMS opens to preview a page (docs/preview.md): `GET /_preview?path=<site path>&t=<unix
 * seconds>&sig=<hex HMAC-SHA256 of "<t>.<path>" with PREVIEW_SECRET>`. This module only reads and checks a link;
 * each refusal says in Chinese which check failed, for the editor's 401 page.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalPathOf } from '../../shared/canonical-path';
import { findRoute } from '../../shared/routes';
import { PREVIEW_LINK_SECONDS } from './contract';

/** How far ahead of the portal's clock a link may be (the CMS's clock drifting). */
const CLOCK_SKEW_SECONDS = 60;
const MAX_PATH_LENGTH = 2048;

export class PreviewLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreviewLinkError';
  }
}

export interface PreviewLink {
  /** The site path to preview: a page of the site, in its one canonical spelling. */
  path: string;
  timestamp: number;
  /** Lower-case hex: the same link spelt in capitals is the same link (for replay). */
  signature: string;
}

/** What the CMS computes: hex HMAC-SHA256 of "<t>.<path>" (docs/preview.md has it in shell). */
export function signPreviewLink(secret: string, timestamp: number, path: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${path}`).digest('hex');
}

/**
 * The mobile site's article with the preview kept (docs/preview.md): `preview_t` and `preview_sig`, the HMAC of
 * "<t>.<path and query>" as for a link of this site, so the mobile site (sharing PREVIEW_SECRET) opens its preview.
 */
export function signedMobileLink(target: URL, secret: string, nowMs: number = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  const signed = new URL(target);
  signed.searchParams.set('preview_t', String(t));
  signed.searchParams.set('preview_sig', signPreviewLink(secret, t, `${target.pathname}${target.search}`));
  return signed.toString();
}

/** One value of a query parameter, or a refusal naming it. */
function single(query: URLSearchParams, name: string): string {
  const values = query.getAll(name);
  if (values.length !== 1) throw new PreviewLinkError(values.length === 0 ? `链接缺少参数 ${name}` : `链接中的参数 ${name} 不止一个`);
  return values[0]!;
}

function pathOf(query: URLSearchParams): string {
  const path = single(query, 'path');
  if (!path.startsWith('/') || path.startsWith('//') || path.length > MAX_PATH_LENGTH) throw new PreviewLinkError(`路径“${path.slice(0, 80)}”不是本站的路径`);
  const [pathname, search] = splitSearch(path);
  if (canonicalPathOf(pathname) !== pathname) throw new PreviewLinkError(`路径“${path.slice(0, 80)}”不是本站的规范写法`);
  if (findRoute(pathname).kind !== 'page') throw new PreviewLinkError(`路径“${path.slice(0, 80)}”不是本站的页面`);
  return search === '' ? pathname : `${pathname}?${search}`;
}

function splitSearch(path: string): [string, string] {
  const at = path.indexOf('?');
  return at === -1 ? [path, ''] : [path.slice(0, at), path.slice(at + 1)];
}

/**
 * Checks the link against PREVIEW_SECRET and the clock: the path a page of the site, the signature right, the
 * link at most PREVIEW_LINK_SECONDS old. Replay is the caller's to refuse (it needs the shared store).
 */
export function readPreviewLink(query: URLSearchParams, secret: string, nowMs: number = Date.now()): PreviewLink {
  const path = pathOf(query);
  const t = single(query, 't');
  if (!/^\d{1,12}$/.test(t)) throw new PreviewLinkError('参数 t 应为链接生成时的 Unix 时间（秒）');
  const signature = single(query, 'sig').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(signature)) throw new PreviewLinkError('参数 sig 应为 64 位十六进制数（HMAC-SHA256）');
  const timestamp = Number(t);
  const expected = Buffer.from(signPreviewLink(secret, timestamp, path), 'hex');
  if (!timingSafeEqual(Buffer.from(signature, 'hex'), expected))
    throw new PreviewLinkError('签名与路径和时间不符（应为用 PREVIEW_SECRET 对“<t>.<path>”计算的 HMAC-SHA256）');
  const age = Math.round(nowMs / 1000 - timestamp);
  if (age > PREVIEW_LINK_SECONDS) throw new PreviewLinkError(`链接已生成 ${age} 秒，有效期为 ${PREVIEW_LINK_SECONDS} 秒：请从内容管理系统重新打开预览`);
  if (age < -CLOCK_SKEW_SECONDS) throw new PreviewLinkError(`链接的时间比门户服务器的时钟快 ${-age} 秒`);
  return { path, timestamp, signature };
}
