/** The table `npm run lighthouse` prints: figures read from a report, medians per figure, targets missed. */
import {
  figuresOf,
  formatTable,
  isLighthouseRuntimeError,
  lcpElementOf,
  median,
  medianFigures,
  missedTargets,
  type RunFigures,
} from '../../scripts/lighthouse-table';

const GOOD: RunFigures = { performance: 99, accessibility: 100, bestPractices: 100, seo: 100, tbtMs: 20, lcpMs: 1800, jsKiB: 50, imageKiB: 120, imagesPass: 1 };

describe('lighthouse table', () => {
  it('reads scores, TBT and script bytes from a report', () => {
    const report = {
      categories: { performance: { score: 0.876 }, accessibility: { score: 1 }, 'best-practices': { score: 0.96 }, seo: { score: null } },
      audits: {
        'total-blocking-time': { numericValue: 212.6 },
        'largest-contentful-paint': { numericValue: 2411.4 },
        'uses-responsive-images': { score: 1 },
        'modern-image-formats': { score: 0.5 },
        'resource-summary': {
          details: {
            items: [
              { resourceType: 'image', transferSize: 2048 },
              { resourceType: 'script', transferSize: 61_440 },
            ],
          },
        },
      },
    };
    expect(figuresOf(report)).toEqual({
      performance: 88,
      accessibility: 100,
      bestPractices: 96,
      seo: 0,
      tbtMs: 213,
      lcpMs: 2411,
      jsKiB: 60,
      imageKiB: 2,
      imagesPass: 0,
    });
    const modern = { ...report, audits: { ...report.audits, 'modern-image-formats': { score: null } } };
    expect(figuresOf(modern).imagesPass).toBe(1);
  });

  it('names the LCP element by its selector and opening tag, or says it is unknown', () => {
    const node = { type: 'node', selector: 'main > ul.article-list--lead > li > a > img', snippet: '<img src="/a.jpg" alt="">' };
    const report = {
      categories: {},
      audits: {
        'largest-contentful-paint-element': {
          details: {
            items: [
              { type: 'table', items: [{ node }] },
              { type: 'table', items: [{ phase: 'TTFB', timing: 600 }] },
            ],
          },
        },
      },
    };
    expect(lcpElementOf(report)).toBe('main > ul.article-list--lead > li > a > img <img src="/a.jpg" alt="">');
    expect(lcpElementOf({ categories: {}, audits: {} })).toBe('unknown');
  });

  it('takes the median of each figure on its own, odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
    const runs = [
      { ...GOOD, performance: 70, tbtMs: 900 },
      { ...GOOD, performance: 95, tbtMs: 10 },
      { ...GOOD, performance: 90, tbtMs: 300 },
    ];
    expect(medianFigures(runs)).toMatchObject({ performance: 90, tbtMs: 300, imagesPass: 1 });
    expect(medianFigures([...runs, { ...GOOD, imagesPass: 0 }]).imagesPass).toBe(0);
  });

  it.each([
    ['mobile', { ...GOOD, performance: 90, tbtMs: 200 }, false, []],
    ['mobile', { ...GOOD, performance: 89, tbtMs: 201 }, false, ['Performance < 90', 'TBT > 200 ms']],
    ['desktop', { ...GOOD, performance: 97, tbtMs: 51 }, false, ['Performance < 98', 'TBT > 50 ms']],
    ['desktop', { ...GOOD, accessibility: 99, bestPractices: 96, seo: 92 }, false, ['A11y < 100', 'BP < 100', 'SEO < 100']],
    ['desktop', { ...GOOD, jsKiB: 60.5 }, true, ['JS > 60 KiB']],
    ['desktop', { ...GOOD, jsKiB: 120 }, false, []],
    ['mobile', { ...GOOD, imagesPass: 0 }, false, ['images not sized or not in a modern format']],
  ] as const)('judges a %s row %j (article page: %s) as missing %j', (form, figures, article, missed) => {
    expect(missedTargets(figures, form, article)).toEqual(missed);
  });

  it('prints one row per page and form factor, with what each misses and the targets', () => {
    const table = formatTable([
      { page: 'home', form: 'mobile', figures: { ...GOOD, performance: 80 }, missed: ['Performance < 90'] },
      { page: 'detail', form: 'desktop', figures: GOOD, missed: [] },
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^\| page \| form \| Performance \| TBT ms \| LCP ms/);
    expect(lines[2]).toBe('| home | mobile | 80 | 20 | 1800 | 100 | 100 | 100 | 50.0 | 120.0 | Performance < 90 |');
    expect(lines[3]).toBe('| detail | desktop | 99 | 20 | 1800 | 100 | 100 | 100 | 50.0 | 120.0 | none |');
    expect(table).toContain('Performance ≥ 90 mobile / ≥ 98 desktop');
  });

  it('runs again only what Lighthouse itself failed to record, not a page that failed', () => {
    const runtime = (code: string) =>
      `lighthouse http://127.0.0.1:34017/search/6Z2S5bm0/2 (desktop): Runtime error encountered: Something went wrong with recording the trace over your page load. Please run Lighthouse again. (${code})`;
    for (const code of ['NO_NAVSTART', 'NO_FCP', 'PROTOCOL_TIMEOUT', 'PAGE_HUNG'])
      expect([code, isLighthouseRuntimeError(runtime(code))]).toEqual([code, true]);
    for (const code of ['ERRORED_DOCUMENT_REQUEST', 'FAILED_DOCUMENT_REQUEST', 'NOT_HTML', 'CHROME_INTERSTITIAL_ERROR'])
      expect([code, isLighthouseRuntimeError(runtime(code))]).toEqual([code, false]);
    expect(isLighthouseRuntimeError('lighthouse http://127.0.0.1:1/ (mobile): Unable to connect to Chrome (NO_NAVSTART)')).toBe(false);
    expect(isLighthouseRuntimeError('lighthouse: spawn /usr/bin/chromium ENOENT')).toBe(false);
  });
});
