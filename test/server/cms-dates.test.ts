/**
 * Dates from the CMS are read once where they enter (server/upstream/wire.ts cmsDateSeconds, docs/security.md):
 * the reference content API's answers with every date field (`adddate`, `start_time`, `end_time`) replaced by
 * one variant, crawled over every page kind. A usable date is shown; any other is absent: no 'NaN', no
 * 'Invalid Date', no 1970; every `<time datetime>`, JSON-LD date, RSS pubDate and sitemap lastmod is valid or
 * not there at all. A bad date never fails a call either: every page answers as it would with good dates.
 */
import { startReferenceApi } from '../../scripts/reference-api/server';
import { encodeKeyword } from '../../shared/search-keyword';
import { MAIN_DOMAIN } from '../../shared/sites';
import { cmsDateSeconds, EARLIEST_DATE_SECONDS, LATEST_DATE_SECONDS } from '../../server/upstream/wire';
import { crawl, seedPaths, type Crawled } from '../support/crawl';
import { withoutNonces } from '../support/http';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../support/portal';
import { startRewritingUpstream, type RewritingUpstream } from '../support/rewriting-upstream';

const ORIGIN = `https://${MAIN_DOMAIN}`;
const DATE_FIELDS = new Set(['adddate', 'start_time', 'end_time']);
/** A date the window accepts, sent as the CMS might: the test's own instant, so nothing is hard-coded. */
const GOOD = Math.floor(Date.now() / 1000) - 3 * 86_400;

/** Each variant, and whether the portal should show it (true) or treat it as absent (false). */
const VARIANTS: ReadonlyArray<[label: string, value: unknown, shown: boolean]> = [
  ['2^53-1', Number.MAX_SAFE_INTEGER, false],
  ['negative', -86_400, false],
  ['zero', 0, false],
  ['milliseconds for seconds', GOOD * 1000, false],
  ['year 3000', 32_503_680_000, false],
  ['the day before the window', EARLIEST_DATE_SECONDS - 1, false],
  ['the end of the window', LATEST_DATE_SECONDS, false],
  ["'NaN'", 'NaN', false],
  ["'abc'", 'abc', false],
  ['an empty string', '', false],
  ['null', null, false],
  ['a float over the window', 1e300, false],
  ['missing', undefined, false],
  ['an object', { sec: GOOD }, false],
  ['digits as a string', String(GOOD), true],
  ['a fraction', GOOD + 0.75, true],
];

const ISO = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/;
const YEAR_FLOOR = new Date(EARLIEST_DATE_SECONDS * 1000).getUTCFullYear();
const YEAR_CEILING = new Date(LATEST_DATE_SECONDS * 1000).getUTCFullYear();

/** Every date a page states, by where it stands. */
function datesOf(page: Crawled): Array<{ where: string; text: string }> {
  const found = (where: string, pattern: RegExp) => [...page.body.matchAll(pattern)].map((match) => ({ where, text: match[1] ?? '' }));
  return [
    ...found('<time datetime>', /<time[^>]*\bdatetime="([^"]*)"/gi),
    ...found('JSON-LD', /"(?:datePublished|dateModified|uploadDate)":"([^"]*)"/g),
    ...found('pubDate', /<pubDate>([^<]*)<\/pubDate>/g),
    ...found('lastBuildDate', /<lastBuildDate>([^<]*)<\/lastBuildDate>/g),
    ...found('lastmod', /<lastmod>([^<]*)<\/lastmod>/g),
  ];
}

function isValidDate(where: string, text: string): boolean {
  const time = new Date(text).getTime();
  if (!Number.isFinite(time)) return false;
  const year = new Date(time).getUTCFullYear();
  if (year < YEAR_FLOOR || year >= YEAR_CEILING) return false;
  return where === 'pubDate' || where === 'lastBuildDate' ? /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text) : ISO.test(text);
}

describe('cmsDateSeconds', () => {
  it.each(VARIANTS)('%s → %p shown: %p', (_label, value, shown) => {
    const seconds = cmsDateSeconds(value);
    if (!shown) expect(seconds).toBeNull();
    else expect(seconds).toBe(GOOD);
  });
});

// One reference API, one rewriting server and one portal for every variant (16 portals took most of the suite's
// time): the rewriting server sends the variant of the block running now, and each block starts from an empty
// cache, so no page or CMS answer of the variant before it is served.
describe('one portal, its CMS sending each variant in turn', () => {
  let reference: ReferenceServer;
  let rewriting: RewritingUpstream;
  let t: TestPortal;
  const sent: { value: unknown } = { value: undefined };

  beforeAll(async () => {
    reference = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    rewriting = await startRewritingUpstream(reference, (key, current) => (DATE_FIELDS.has(key) && typeof current === 'number' ? sent.value : current));
    t = await startTestPortal({ upstream: rewriting.asUpstream });
  });
  afterAll(async () => {
    await t?.close();
    await rewriting?.close();
    await reference?.close();
  });

  describe.each(VARIANTS)('every CMS date as %s', (_label, value, shown) => {
    beforeAll(async () => {
      sent.value = value;
      // Forget every page and CMS answer the portal holds (its data and page caches live under its prefix).
      const store = t.portal.store;
      await store.deleteKeys(await store.keysMatching(`${t.cachePrefix}:*`));
      expect(await store.keysMatching(`${t.cachePrefix}:*`)).toEqual([]);
    });

    it('every page kind answers, and states a valid date or none', async () => {
      const start = ['/', '/sitemaps/news.xml', '/sitemaps/pages.xml', `/search/${encodeKeyword('新闻')}/2`, ...(await seedPaths(reference.url))];
      const pages = await crawl(t.url, { host: MAIN_DOMAIN, origin: ORIGIN, start, perKind: 1 });
      const kinds = new Set(pages.map((page) => page.kind));
      for (const kind of ['home', 'detail', 'categoryList', 'search', 'video', 'live', 'newsTrack', 'rss', '/sitemaps/news.xml']) {
        expect([kind, kinds.has(kind)]).toEqual([kind, true]);
      }
      expect(pages.filter((page) => page.status !== 200 && page.status !== 404).map((page) => `${page.path}: ${page.status}`)).toEqual([]);
      expect(pages.filter((page) => /NaN|Invalid Date|1970-01-01/.test(withoutNonces(page.body))).map((page) => page.path)).toEqual([]);
      const dates = pages.flatMap((page) => datesOf(page).map((date) => ({ ...date, path: page.path })));
      expect(dates.filter((date) => !isValidDate(date.where, date.text))).toEqual([]);
      const where = new Set(dates.map((date) => date.where));
      if (shown) {
        // Every place a CMS date stands carries one.
        for (const place of ['<time datetime>', 'JSON-LD', 'pubDate', 'lastBuildDate', 'lastmod']) expect([place, where.has(place)]).toEqual([place, true]);
      } else {
        // Nothing the CMS dated states a time: every date the crawl found (if any) is not a CMS one.
        expect(dates).toEqual([]);
      }
    }, 120_000);
  });
});
