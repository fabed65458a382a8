/**
 * One text from the CMS does not size a page either (docs/pages.md, "Bounds on what the CMS sends"): a real upstream
 * in front of the reference API makes every text of every answer (titles, summaries, names, picture URLs; the
 * article body aside) 20 000 characters long, its own text repeated. A text is written into a page several times
 * (heading, document title, Open Graph, JSON-LD, hydration state, share link; a URL once per srcset width), so
 * every page kind a crawler reaches is held to a size the cut where texts enter (CMS_TEXT_MAX) allows, and a
 * text cut there still ends where a character does (no lone surrogate reaches a page).
 */
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { MAIN_DOMAIN } from '../../../shared/sites';
import { CMS_NAME_MAX, CMS_TEXT_MAX } from '../../../server/upstream/wire';
import { isWellFormed } from '../../../server/platform/well-formed';
import { crawl, seedPaths, SEO_PATHS } from '../../support/crawl';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { startRewritingUpstream, type RewritingUpstream } from '../../support/rewriting-upstream';

const ORIGIN = `https://${MAIN_DOMAIN}`;
const LENGTH = 20_000;
/**
 * With every text at its cut the largest page (the gallery) is about 690 KB; before the cut these texts made pages
 * of 3 to 26 MB (a 404 7.5 MB, by the menu and footer alone).
 */
const PAGE_MAX_BYTES = 1024 * 1024;

/** Every text but an id in digits, the body and the session token, repeated to LENGTH (an astral character at the cut). */
function lengthen(key: string, value: unknown): unknown {
  if (typeof value !== 'string' || /^\d*$/.test(value) || key === 'content' || key === 'token') return value;
  const unit = `${value}😀`;
  return unit.repeat(Math.ceil(LENGTH / unit.length)).slice(0, LENGTH);
}

describe('every page kind over a CMS whose every text is 20 000 characters', () => {
  let reference: ReferenceServer;
  let rewriting: RewritingUpstream;
  let t: TestPortal;
  beforeAll(async () => {
    reference = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    rewriting = await startRewritingUpstream(reference, lengthen);
    // The answers are larger than a real one may be: the bound under test is the page's, not the body's.
    t = await startTestPortal({ upstream: rewriting.asUpstream, env: { UPSTREAM_MAX_BODY_BYTES: String(64 * 1024 * 1024) } });
  });
  afterAll(async () => {
    await t?.close();
    await rewriting?.close();
    await reference?.close();
  });

  it('each page answers within its bytes, well-formed, and shows the texts cut where they enter', async () => {
    expect(LENGTH).toBeGreaterThan(CMS_TEXT_MAX);
    const start = ['/', ...SEO_PATHS, ...(await seedPaths(reference.url)), '/hd', '/electronic', '/specialColumn'];
    const pages = await crawl(t.url, { host: MAIN_DOMAIN, origin: ORIGIN, start, perKind: 1, limit: 60 });
    const kinds = new Set(pages.map((page) => page.kind));
    for (const kind of ['home', 'detail', 'categoryList', 'video', 'rss', '/sitemaps/news.xml']) expect([kind, kinds.has(kind)]).toEqual([kind, true]);
    const over = pages
      .filter((page) => page.status >= 500 || Buffer.byteLength(page.body) > PAGE_MAX_BYTES || !isWellFormed(page.body))
      .map((page) => `${page.path}: ${page.status}, ${Buffer.byteLength(page.body)} bytes`);
    expect(over).toEqual([]);
    // The texts did arrive, cut: an article's heading is CMS_NAME_MAX characters (or one less, not to split a pair).
    const detail = pages.find((page) => page.kind === 'detail' && page.status === 200)!;
    const heading = /<h1[^>]*>([^<]*)<\/h1>/.exec(detail.body)?.[1] ?? '';
    expect(heading.length).toBeGreaterThanOrEqual(CMS_NAME_MAX - 1);
    expect(heading.length).toBeLessThanOrEqual(CMS_NAME_MAX);
  });
});
