/**
 * `/img/{width}/{source as base64url}`: a CMS picture at one of the widths the slots ask for (shared/image-pipeline.ts),
 * in AVIF, WebP or JPEG as the browser's Accept says (Vary: Accept; docs/decisions/0160-image-format-by-accept.md).
 * The URL names the picture for good, so the answer is stored like a page (the data cache: L1, Redis) and the edge
 * keeps it a year. Only sources on the configured media origins are read (./source-fetch.ts). An original that
 * fails gives the slot a placeholder picture with a 502 (504 when it was slow) kept a minute, never a 500, and is
 * counted by reason (portal_image_failures_total).
 */
import { createHash } from 'node:crypto';
import { Router, type Response } from 'express';
import pLimit from 'p-limit';
import type { Cache, Codec, Loaded } from '../cache/cache';
import type { CachePolicy } from '../cache/entry';
import { ALL_SITES_SEGMENT, cacheKey, type KeySpace } from '../cache/keys';
import { parseResizedPath, resizableSource, type ResizerPipeline } from '../../shared/image-pipeline';
import { CONTENT_TYPES, formatFor, PictureError, resizePicture, type OutputFormat } from './resize';
import type { ImageFailure, ImageOutcome } from './outcomes';
import { fetchSource, SourceError, type SourceLimits } from './source-fetch';

const ONE_YEAR_SECONDS = 365 * 24 * 3600;
/** A picture is the same for good (its URL names its source); the store's longest window keeps it. */
const PICTURE_POLICY: CachePolicy = { ttl: 30 * 86_400, grace: 0, staleIfError: 0 };
/** A failed original is asked for again after a minute, not on every reader's request meanwhile. */
const FAILURE_POLICY: CachePolicy = { ttl: 60, grace: 0, staleIfError: 0 };
const FAILURE_MAX_AGE_SECONDS = 60;
/** Resizes at once (libvips draws each with one thread; sharp.concurrency(1)), and waiting at most. */
const RESIZES_AT_ONCE = 2;
const RESIZES_WAITING = 64;
const BUSY_RETRY_AFTER_SECONDS = 2;

export interface ImageRouteDeps {
  pipeline: ResizerPipeline;
  cache: Cache;
  keys: KeySpace;
  source: SourceLimits;
  maxPixels: number;
  /** Embedded mode: where site-relative `/media/…` pictures are read (the in-process reference API). */
  embeddedMediaUpstream?: string;
  /** The content API's origin: read even on a private address, as the portal reads the API itself there. */
  contentApiOrigin?: string;
  onOutcome?: (outcome: ImageOutcome) => void;
  onFailure?: (reason: ImageFailure) => void;
}

/** What the cache holds for a picture: its bytes in one format, or why the original failed. */
type StoredPicture = { ok: true; format: OutputFormat; bytes: Buffer } | { ok: false; reason: ImageFailure; slow: boolean };

/** A JSON head line, then the bytes: one Buffer in every store. */
const pictureCodec: Codec<StoredPicture> = {
  encode: (picture) => {
    const head = picture.ok ? { ok: true, format: picture.format } : { ok: false, reason: picture.reason, slow: picture.slow };
    return Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), picture.ok ? picture.bytes : Buffer.alloc(0)]);
  },
  decode: (stored) => {
    const buffer = typeof stored === 'string' ? Buffer.from(stored, 'latin1') : stored;
    const newline = buffer.indexOf(0x0a);
    if (newline < 0) throw new Error('no picture head');
    const head = JSON.parse(buffer.subarray(0, newline).toString('utf8')) as { ok?: unknown; format?: unknown; reason?: unknown; slow?: unknown };
    if (head.ok === true && (head.format === 'avif' || head.format === 'webp' || head.format === 'jpeg'))
      return { ok: true, format: head.format, bytes: buffer.subarray(newline + 1) };
    if (head.ok === false && typeof head.reason === 'string') return { ok: false, reason: head.reason as ImageFailure, slow: head.slow === true };
    throw new Error('not a stored picture');
  },
};

/** A neutral box in the slot, saying in the reader's language that the picture is not available. */
const PLACEHOLDER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180">' +
  '<rect width="320" height="180" fill="#e8e8e8"/>' +
  '<text x="160" y="96" text-anchor="middle" fill="#888" font-size="16" font-family="sans-serif">图片暂不可用</text></svg>';

export function imageRoutes(deps: ImageRouteDeps): Router {
  const router = Router();
  const limit = pLimit(RESIZES_AT_ONCE);
  router.get(/^\/img\/.*/, async (req, res, next) => {
    try {
      const parsed = parseResizedPath(req.path);
      if (!parsed) return refuse(res, deps, 404, '没有这个图片地址\n');
      const source = sourceUrl(deps, parsed.src);
      if (!source) return refuse(res, deps, 403, '图片来源不在允许之列\n');
      if (limit.pendingCount >= RESIZES_WAITING) {
        deps.onOutcome?.('busy');
        res.status(503).setHeader('Retry-After', String(BUSY_RETRY_AFTER_SECONDS)).setHeader('Cache-Control', 'no-store');
        return void res.type('text/plain').send('图片处理繁忙，请稍后再试\n');
      }
      const format = formatFor(req.headers.accept);
      const key = cacheKey(
        deps.keys,
        'data',
        ALL_SITES_SEGMENT,
        `img:${format}:${parsed.height ? `${parsed.width}x${parsed.height}` : parsed.width}:${createHash('sha256').update(parsed.src).digest('base64url')}`,
      );
      const load = (): Promise<Loaded<StoredPicture>> => limit(() => loadPicture(deps, source, parsed, format));
      const served = await deps.cache.getOrLoad(key, PICTURE_POLICY, load, pictureCodec);
      res.setHeader('Vary', 'Accept');
      res.setHeader('X-Cache', served.state);
      if (!served.value.ok) return fallback(res, deps, served.value);
      deps.onOutcome?.(served.state === 'MISS' ? 'resized' : 'hit');
      res.setHeader('Cache-Control', `public, max-age=${ONE_YEAR_SECONDS}, immutable`);
      res.type(CONTENT_TYPES[served.value.format]).send(served.value.bytes);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/** The address to read, if the pipeline resizes this source; null for any other (never read). */
function sourceUrl(deps: ImageRouteDeps, src: string): { url: URL; allowPrivate: boolean } | null {
  if (!resizableSource(deps.pipeline, src)) return null;
  if (src.startsWith('/')) return deps.embeddedMediaUpstream ? { url: new URL(src, deps.embeddedMediaUpstream), allowPrivate: true } : null;
  const url = new URL(src);
  return { url, allowPrivate: deps.source.allowPrivate || url.origin === deps.contentApiOrigin };
}

async function loadPicture(
  deps: ImageRouteDeps,
  source: { url: URL; allowPrivate: boolean },
  size: { width: number; height?: number },
  format: OutputFormat,
): Promise<Loaded<StoredPicture>> {
  try {
    const original = await fetchSource(source.url, { ...deps.source, allowPrivate: source.allowPrivate });
    const bytes = await resizePicture(original.bytes, size.width, format, { maxPixels: deps.maxPixels }, size.height);
    return { value: { ok: true, format, bytes }, cacheable: true, tags: [] };
  } catch (error) {
    if (!(error instanceof SourceError) && !(error instanceof PictureError)) throw error;
    deps.onFailure?.(error.reason);
    return { value: { ok: false, reason: error.reason, slow: error.reason === 'timeout' }, cacheable: true, tags: [], policy: FAILURE_POLICY };
  }
}

function fallback(res: Response, deps: ImageRouteDeps, failed: { reason: ImageFailure; slow: boolean }): void {
  deps.onOutcome?.('fallback');
  res.status(failed.slow ? 504 : 502);
  res.setHeader('Cache-Control', `public, max-age=${FAILURE_MAX_AGE_SECONDS}`);
  res.setHeader('X-Image-Fallback', failed.reason);
  res.type('image/svg+xml').send(PLACEHOLDER_SVG);
}

function refuse(res: Response, deps: ImageRouteDeps, status: 403 | 404, message: string): void {
  deps.onOutcome?.('refused');
  res.status(status).setHeader('Cache-Control', 'public, max-age=300').type('text/plain; charset=utf-8').send(message);
}
