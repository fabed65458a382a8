/**
 * What the CMS sends does not size any page (docs/pages.md, "Bounds on what the CMS sends"), whichever list it
 * inflates: a real upstream in front of the reference API makes every list of every answer, and every list inside
 * those lists' entries (an ad slot's ads, a newspaper page's areas, a category's children), 150 entries long,
 * each copy an entry of its own (its ids shifted). Every page kind a crawler reaches, each rendered cold, stays
 * within the bounds docs/pages.md gives: bytes, upstream calls per render, the header block, the slides of a
 * carousel.
 */
import http from 'node:http';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { HOME_MAX_BLOCKS } from '../../../shared/constants';
import { MAIN_DOMAIN } from '../../../shared/sites';
import { AD_CAROUSEL_MAX, CMS_LIST_MAX } from '../../../server/upstream/wire';
import { crawl, seedPaths, SEO_PATHS } from '../../support/crawl';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { startRewritingUpstream, type RewritingUpstream } from '../../support/rewriting-upstream';

const ORIGIN = `https://${MAIN_DOMAIN}`;
/** Past CMS_LIST_MAX, so every cut where a list enters is exercised. */
const ENTRIES = 150;
/**
 * docs/pages.md: no page past 384 KiB with every list at its bound (the gallery, 12 stories of 16 pictures, is the
 * largest: about 320 KB), and the most upstream calls of one render (home's).
 */
const PAGE_MAX_BYTES = 384 * 1024;
const MAX_CALLS = HOME_MAX_BLOCKS + 24;
const HEADER_BLOCK_MAX_BYTES = 8 * 1024;
const ID_FIELDS = ['id', 'catid', 'article_id'] as const;

type Json = Record<string, unknown>;

/**
 * `list` as `ENTRIES` entries: its own entries with their lists inflated `depth - 1` levels further, then copies
 * of them with ids of their own (and their lists as the CMS sent them, which keeps the answer's size in reach).
 */
function inflateList(list: unknown[], depth: number): unknown[] {
  if (list.length === 0) return list;
  const own = list.map((entry) => inflateIn(entry, depth - 1));
  return Array.from({ length: ENTRIES }, (_, index) => {
    if (index < own.length) return own[index];
    const entry = list[index % list.length];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
    const copy: Json = { ...(entry as Json) };
    for (const field of ID_FIELDS) if (typeof copy[field] === 'number') copy[field] = (copy[field] as number) + 1_000_000 + index;
    return copy;
  });
}

/** Every list in `value` inflated, down to `depth` levels of lists within lists. */
function inflateIn(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return depth > 0 ? inflateList(value, depth) : value;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Json).map(([key, item]) => [key, inflateIn(item, depth)]));
}

/** The answer's data, whatever its lists: three levels of them (an issue's pages' areas). */
function inflateAnswer(key: string, value: unknown): unknown {
  return key === '' && value !== null && typeof value === 'object' ? { ...(value as Json), data: inflateIn((value as Json).data, 3) } : value;
}

interface Measured {
  status: number;
  bytes: number;
  headerBytes: number;
  calls: number;
  body: string;
}

/** One cold render (the portal's cache emptied first): status, body and header block bytes, upstream calls. */
async function measureCold(t: TestPortal, reference: ReferenceServer, path: string): Promise<Measured> {
  await t.portal.store.deleteKeys(await t.portal.store.keysMatching(`${t.cachePrefix}:*`));
  reference.api.control.reset();
  const { hostname, port } = new URL(t.url);
  const answer = await new Promise<{ status: number; body: Buffer; headerBytes: number }>((resolve, reject) => {
    const req = http.get({ hostname, port, path, headers: { host: MAIN_DOMAIN, 'accept-encoding': 'identity' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        const headerBytes = res.rawHeaders.reduce((sum, field) => sum + Buffer.byteLength(field) + 2, 0);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), headerBytes });
      });
    });
    req.on('error', reject);
  });
  return {
    status: answer.status,
    bytes: answer.body.length,
    headerBytes: answer.headerBytes,
    calls: reference.api.control.stats().total,
    body: answer.body.toString('utf8'),
  };
}

/** The slides of each ad carousel of a page, in page order. */
function carouselSlides(html: string): number[] {
  return html
    .split('class="ad-carousel')
    .slice(1)
    .map((part) => part.split('class="ad-slide__body').length - 1);
}

describe('every page kind over a CMS that sends 150 entries in every list', () => {
  let reference: ReferenceServer;
  let inflating: RewritingUpstream;
  let t: TestPortal;
  beforeAll(async () => {
    reference = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    inflating = await startRewritingUpstream(reference, inflateAnswer);
    // The inflated answers are larger than a real one may be: the bound under test is the page's, not the body's.
    t = await startTestPortal({ upstream: inflating.asUpstream, env: { UPSTREAM_MAX_BODY_BYTES: String(64 * 1024 * 1024) } });
  });
  afterAll(async () => {
    await t?.close();
    await inflating?.close();
    await reference?.close();
  });

  it('the upstream does send them (nested lists too)', async () => {
    const ads = (await fetch(`${inflating.url}/api/ad/list_by_column_id?catid=-4`).then((res) => res.json())) as { data: Array<{ list: unknown[] }> };
    expect(ads.data).toHaveLength(ENTRIES);
    expect(ads.data[0]!.list).toHaveLength(ENTRIES);
    expect(ENTRIES).toBeGreaterThan(CMS_LIST_MAX);
  });

  it('each page, rendered cold, stays within its bytes, calls, header block and carousel slides', async () => {
    const start = ['/', ...SEO_PATHS, ...(await seedPaths(reference.url)), '/readNewspapers/2761', '/electronic', '/hd', '/poster', '/specialColumn'];
    const pages = await crawl(t.url, { host: MAIN_DOMAIN, origin: ORIGIN, start, perKind: 1, limit: 80 });
    const kinds = new Set(pages.map((page) => page.kind));
    // The crawl reached what it means to: articles, lists, media, the e-paper, the feeds and sitemaps.
    for (const kind of ['home', 'detail', 'categoryList', 'video', 'newspaper', 'topicDetail', 'rss', '/sitemaps/pages.xml', '/sitemaps/news.xml'])
      expect([kind, kinds.has(kind)]).toEqual([kind, true]);
    const over: string[] = [];
    for (const page of pages) {
      const measured = await measureCold(t, reference, page.path);
      const slides = carouselSlides(measured.body);
      const line = `${page.path}: ${measured.status}, ${measured.bytes} bytes, ${measured.calls} calls, ${measured.headerBytes} header bytes, slides ${slides.join('/')}`;
      if (
        measured.status >= 500 ||
        measured.bytes > PAGE_MAX_BYTES ||
        measured.calls > MAX_CALLS ||
        measured.headerBytes > HEADER_BLOCK_MAX_BYTES ||
        slides.some((count) => count > AD_CAROUSEL_MAX)
      )
        over.push(line);
    }
    expect(over).toEqual([]);
  });
});
