/**
 * HTTP routes for robots.txt, sitemaps and RSS. Their bodies are cached like pages (per site, TTL and grace)
 * and only successful answers are stored. Downstream they are shared like pages (server/cache/headers.ts):
 * `s-maxage` with the stale windows and `Age`, and a `Surrogate-Key` naming every item they list, so a purge of
 * `article:{id}` reaches the feeds and sitemaps listing it at the edges too, not only in the portal's caches.
 */
import { Router, type Response } from 'express';
import { resolveSite, type SiteConfig } from '../../shared/sites';
import { z } from 'zod';
import { checkedJsonCodec, type Cache } from '../cache/cache';
import type { KeySpace } from '../cache/keys';
import { cacheKey } from '../cache/keys';
import type { CachePolicy } from '../cache/entry';
import { CallRecorder, type ContentService } from '../upstream/content-service';
import { ContentUnavailableError, type ContentApi } from '../../shared/content-api';
import { PRIVATE_NO_STORE, sharedCacheControl, surrogateKey } from '../cache/headers';
import { categoryRss, newsSitemap, pagesSitemap, robotsTxt, sitemapIndex } from './feeds';
import { TEXT } from '../../shared/constants';
import { UNAVAILABLE_MESSAGE } from '../render/page-status';

const FEED_POLICY: CachePolicy = { ttl: 300, grace: 3600, staleIfError: 86_400 };
/** The sitemap index: per site, with no data of the CMS in it. */
const INDEX_POLICY: CachePolicy = { ttl: 3600, grace: 3600, staleIfError: 86_400 };

/** The kind a feed is tagged with, as a page with its `page:{kind}` (`portal-cache purge --tag page:rss`). */
type FeedKind = 'rss' | 'sitemap';
/** A feed's body, or null for a feed that does not exist: anything else held in its place is a miss. */
const FEED_CODEC = checkedJsonCodec(z.string().nullable());
const ID_PATTERN = /^[1-9]\d{0,9}$/;

export interface FeedDeps {
  cache: Cache;
  keys: KeySpace;
  content: ContentService;
  protocol: 'http' | 'https';
}

type Build = (site: SiteConfig, content: ContentApi) => Promise<string | null>;

export function feedRoutes(deps: FeedDeps): Router {
  const router = Router();

  async function send(res: Response, host: string | undefined, path: string, kind: FeedKind, type: string, build: Build): Promise<void> {
    const site = resolveSite(host);
    const recorder = new CallRecorder();
    // A feed is its data: a failed call makes it a 503, not a sitemap or RSS with entries missing.
    const content = deps.content.forRequest(recorder, 'throw');
    const key = cacheKey(deps.keys, 'page', site.id, path);
    const served = await deps.cache
      .getOrLoad<string | null>(
        key,
        FEED_POLICY,
        async () => {
          const body = await build(site, content);
          return { value: body, cacheable: body !== null && !recorder.degraded, tags: [...recorder.tags, `site:${site.id}`, `page:${kind}`] };
        },
        FEED_CODEC,
      )
      .catch((error: unknown) => {
        if (error instanceof ContentUnavailableError) return null;
        throw error;
      });
    if (served === null) {
      res.status(503).setHeader('Retry-After', '30').setHeader('Cache-Control', PRIVATE_NO_STORE).type('text/plain').send(UNAVAILABLE_MESSAGE);
      return;
    }
    res.setHeader('X-Cache', served.state);
    // What the portal did not store (built just now on a call served past grace) is not for shared caches either.
    const stored = !recorder.degraded;
    if (served.value === null) {
      res.status(404).setHeader('Cache-Control', PRIVATE_NO_STORE).type('text/plain').send(TEXT.notFound);
      return;
    }
    if (!stored) {
      res.setHeader('Cache-Control', PRIVATE_NO_STORE);
    } else {
      // As a page: the whole TTL in s-maxage with the held copy's Age (headers.ts), browsers revalidate.
      res.setHeader('Cache-Control', sharedCacheControl(FEED_POLICY));
      if (served.storedAt !== undefined) res.setHeader('Age', String(Math.max(0, Math.floor((Date.now() - served.storedAt) / 1000))));
      const keys = surrogateKey(served.tags);
      if (keys) res.setHeader('Surrogate-Key', keys);
    }
    res.type(type).send(served.value);
  }

  router.get('/robots.txt', (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain').send(robotsTxt(resolveSite(req.headers.host), deps.protocol));
  });

  router.get('/sitemap.xml', (req, res) => {
    const site = resolveSite(req.headers.host);
    res.setHeader('Cache-Control', sharedCacheControl(INDEX_POLICY));
    res.setHeader('Surrogate-Key', surrogateKey([`site:${site.id}`, 'page:sitemap'])!);
    res.type('application/xml').send(sitemapIndex(site, deps.protocol));
  });

  router.get('/sitemaps/pages.xml', (req, res, next) => {
    send(res, req.headers.host, '/sitemaps/pages.xml', 'sitemap', 'application/xml', (site, content) => pagesSitemap(site, deps.protocol, content)).catch(next);
  });

  router.get('/sitemaps/news.xml', (req, res, next) => {
    send(res, req.headers.host, '/sitemaps/news.xml', 'sitemap', 'application/xml', (site, content) => newsSitemap(site, deps.protocol, content)).catch(next);
  });

  router.get('/rss/:file', (req, res, next) => {
    const catid = /^(.+)\.xml$/.exec(req.params.file)?.[1];
    if (!catid || !ID_PATTERN.test(catid)) {
      res.status(404).type('text/plain').send(TEXT.notFound);
      return;
    }
    send(res, req.headers.host, `/rss/${catid}.xml`, 'rss', 'application/rss+xml', (site, content) =>
      categoryRss(site, deps.protocol, Number(catid), content),
    ).catch(next);
  });

  return router;
}
