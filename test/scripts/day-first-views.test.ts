/**
 * FirstViews (scripts/day/first-views.ts): which of the day's refusals no cache could have spared a reader.
 * Rule by rule: only a 503 with Retry-After, only while the CMS is away, only for a page no reader was given.
 */
import { FirstViews } from '../../scripts/day/first-views';

const REFUSED = { status: 503, retryAfter: '5' };

describe('FirstViews', () => {
  it('counts apart a page nobody was given, refused with Retry-After while the CMS is away', () => {
    expect(new FirstViews().unheld('www/a', REFUSED, false, true)).toBe(true);
  });

  it('counts a page a reader was given earlier as an error: it was held', () => {
    const views = new FirstViews();
    expect(views.unheld('www/a', { status: 200, retryAfter: undefined }, true, false)).toBe(false);
    expect(views.unheld('www/a', REFUSED, false, true)).toBe(false);
    expect(views.unheld('www/b', REFUSED, false, true)).toBe(true);
  });

  it('counts as errors a refusal while the CMS answers, one without Retry-After, and any other status', () => {
    const views = new FirstViews();
    expect(views.unheld('www/a', REFUSED, false, false)).toBe(false);
    expect(views.unheld('www/a', { status: 503, retryAfter: undefined }, false, true)).toBe(false);
    expect(views.unheld('www/a', { status: 500, retryAfter: '5' }, false, true)).toBe(false);
    expect(views.unheld('www/a', { status: 502, retryAfter: '5' }, false, true)).toBe(false);
  });

  it('a redirect the reader should get (a phone’s article) gives no page: its first page view may still be refused', () => {
    const views = new FirstViews();
    expect(views.unheld('www/detail/1/2', { status: 302, retryAfter: undefined }, true, false)).toBe(false);
    expect(views.unheld('www/detail/1/2', REFUSED, false, true)).toBe(true);
  });

  it('remembers a page given by its address alone, for any later reader', () => {
    const views = new FirstViews();
    views.unheld('m/detail?id=1', { status: 200, retryAfter: undefined }, true, true);
    expect(views.unheld('m/detail?id=1', REFUSED, false, true)).toBe(false);
    expect(views.unheld('m/detail?id=2', REFUSED, false, true)).toBe(true);
  });
});
