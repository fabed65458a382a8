/**
 * The newspaper's issue date from the CMS (`issue_date`) is read once where it enters (server/upstream/wire.ts
 * cmsIssueDate), by the policy of every CMS date (docs/security.md, "Dates from the CMS"): a real day in the window,
 * else absent. An issue is addressed by its date, so one without a usable date is left out of its list. The
 * reference content API's answers with the issue dates of half the issues (or all of them) replaced by one hostile
 * variant: the e-paper pages answer (200, or 404 where no issue is left), never a 500 or 503, show only the good
 * issues, and no page says 'NaN', 'Invalid Date', 'null' or 'undefined' or carries the planted value.
 */
import request from 'supertest';
import { startReferenceApi } from '../../scripts/reference-api/server';
import { MAIN_DOMAIN } from '../../shared/sites';
import { cmsIssueDate } from '../../server/upstream/wire';
import type { RawNewspaperSearch } from '../../server/upstream/wire';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../support/portal';
import { withoutNonces } from '../support/http';
import { startRewritingUpstream, type RewritingUpstream } from '../support/rewriting-upstream';
import { upstreamData } from '../support/upstream-data';

/** Each variant and what cmsIssueDate makes of it. */
const VARIANTS: ReadonlyArray<[label: string, value: unknown, read: string | null]> = [
  ['NaN', Number.NaN, null],
  ['2^53-1', Number.MAX_SAFE_INTEGER, null],
  ['negative', -86_400, null],
  ['Unix seconds', 1_714_521_600, null],
  ["'NaN'", 'NaN', null],
  ["'abc'", 'abc', null],
  ['an empty string', '', null],
  ['month 13', '2026-13-01', null],
  ['30 February', '2026-02-30', null],
  ['no leading zeros', '2024-5-1', null],
  ['digits only', '20240501', null],
  ['an ISO instant', '2024-05-01T00:00:00Z', null],
  ['far future', '3000-01-01', null],
  ['the end of the window', '2100-01-01', null],
  ['before the window', '1999-12-31', null],
  ['markup', '<script>alert(1)</script>', null],
  ['null', null, null],
  ['missing', undefined, null],
  ['an object', { date: '2024-05-01' }, null],
  ['a good day', '2024-05-01', '2024-05-01'],
  ['a good day in spaces', ' 2024-05-01 ', '2024-05-01'],
  ['29 February of a leap year', '2024-02-29', '2024-02-29'],
];

describe('cmsIssueDate', () => {
  it.each(VARIANTS)('%s → %p reads as %p', (_label, value, read) => {
    expect(cmsIssueDate(value)).toBe(read);
  });
});

const HOSTILE = VARIANTS.filter(
  ([label, , read]) => read === null && ['NaN', '2^53-1', 'negative', "'abc'", '30 February', 'far future', 'markup', 'missing'].includes(label),
);

/** Whether an issue date (as the reference API sends it) is one of the half the test spoils: odd days. */
function spoilt(date: string): boolean {
  return Number(date.slice(-1)) % 2 === 1;
}

// One reference API, one rewriting server and one portal for every variant and test (they started a reference
// API per variant and a portal per test): the rewriting server spoils what the running test says, and each test
// starts from an empty cache, so nothing an earlier test's portal would not have held is served.
describe('one portal, its CMS spoiling issue dates as each test says', () => {
  let reference: ReferenceServer;
  let rewriting: RewritingUpstream;
  let t: TestPortal;
  const spoiling: { value: unknown; which: (date: string) => boolean } = { value: undefined, which: () => false };

  beforeAll(async () => {
    reference = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    rewriting = await startRewritingUpstream(reference, (key, current) =>
      key === 'issue_date' && typeof current === 'string' && spoiling.which(current) ? spoiling.value : current,
    );
    t = await startTestPortal({ upstream: rewriting.asUpstream });
  });
  afterAll(async () => {
    await t?.close();
    await rewriting?.close();
    await reference?.close();
  });

  describe.each(HOSTILE)('issue dates as %s', (_label, value) => {
    /** The portal as a fresh one would be, its CMS spoiling the issue dates `which` picks with this variant. */
    async function spoil(which: (date: string) => boolean): Promise<void> {
      spoiling.value = value;
      spoiling.which = which;
      // Forget every page and CMS answer the portal holds (its data and page caches live under its prefix).
      const store = t.portal.store;
      await store.deleteKeys(await store.keysMatching(`${t.cachePrefix}:*`));
      expect(await store.keysMatching(`${t.cachePrefix}:*`)).toEqual([]);
    }

    async function page(path: string) {
      const res = await request(t.url).get(path).set('Host', MAIN_DOMAIN);
      expect([path, res.status]).not.toEqual([path, 500]);
      expect(withoutNonces(res.text)).not.toMatch(/NaN|Invalid Date|undefined|>null</);
      if (typeof value === 'string' && value !== '') expect(withoutNonces(res.text)).not.toContain(value);
      return res;
    }

    it('half the issues spoilt: the e-paper shows the others, each reachable by its date, and never a spoilt one', async () => {
      await spoil(spoilt);
      const issues = (await upstreamData<RawNewspaperSearch>(reference.url, '/api/rmt/read_newspapers_search?q=&catid=0&page=1&page_size=50')).list;
      const good = issues.filter((issue) => issue.issue_date !== null && !spoilt(issue.issue_date));
      const bad = issues.filter((issue) => issue.issue_date !== null && spoilt(issue.issue_date));
      expect([good.length > 0, bad.length > 0]).toEqual([true, true]);
      const shelf = await page('/electronic');
      expect(shelf.status).toBe(200);
      for (const path of ['/newspaperBoard', ...new Set(issues.map((issue) => `/readNewspapers/${issue.catid}`))]) expect((await page(path)).status).toBe(200);
      for (const issue of good.slice(0, 3)) {
        const res = await page(`/readNewspapers/${issue.catid}?date=${issue.issue_date}`);
        expect(res.status).toBe(200);
        expect(res.text).toContain(issue.issue_date!);
      }
      // A spoilt issue is not in any list: asked for by its (real) date, it is not found, not a 500.
      for (const issue of bad.slice(0, 2)) {
        const res = await page(`/readNewspapers/${issue.catid}?date=${issue.issue_date}`);
        expect(res.status).toBe(404);
        expect(shelf.text).not.toContain(issue.issue_date!);
      }
    });

    it('every issue spoilt: the e-paper pages are not found (404), never a 500 or 503', async () => {
      await spoil(() => true);
      for (const path of ['/electronic', '/newspaperBoard', '/readNewspapers/2761', '/readNewspapers/2761?date=2024-05-01']) {
        expect([path, (await page(path)).status]).toEqual([path, 404]);
      }
    });
  });
});
