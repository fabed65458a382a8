/** Which stores a purge stops: what began before it and is covered by one of its selectors, of its build. */
import { PurgeClock } from '../../../server/cache/purge-clock';
import type { PurgeSelector } from '../../../server/cache/invalidation';

const PAGE = 'p:b1:page:3:/detail/2728/33727';
const QUERY_PAGE = 'p:b1:page:3:/search?q=x';
const DATA = 'p:b1:data:_:list:2728:1:8';

describe('PurgeClock', () => {
  const now = Date.now();
  const cases: Array<[string, PurgeSelector, string, string[], boolean]> = [
    ['a tag the entry holds', { by: 'tag', tag: 'article:33727' }, DATA, ['cat:2728', 'article:33727'], true],
    ['a tag it does not hold', { by: 'tag', tag: 'article:1' }, DATA, ['cat:2728', 'article:33727'], false],
    ['its exact key', { by: 'key', key: PAGE }, PAGE, [], true],
    ['another key', { by: 'key', key: `${PAGE}1` }, PAGE, [], false],
    ['its URL, every query', { by: 'url', siteId: 3, pathname: '/search', search: null }, QUERY_PAGE, [], true],
    ['its URL, that query', { by: 'url', siteId: 3, pathname: '/search', search: '?q=x' }, QUERY_PAGE, [], true],
    ['its URL, another query', { by: 'url', siteId: 3, pathname: '/search', search: '?q=y' }, QUERY_PAGE, [], false],
    ['a longer path', { by: 'url', siteId: 3, pathname: '/detail/2728/3372', search: null }, PAGE, [], false],
    ['its URL on another site', { by: 'url', siteId: 4, pathname: '/detail/2728/33727', search: null }, PAGE, [], false],
    ['its site (page)', { by: 'site', siteId: 3 }, PAGE, [], true],
    ['its site (data tagged with it)', { by: 'site', siteId: 3 }, DATA, ['site:3'], true],
    ['another site', { by: 'site', siteId: 4 }, PAGE, ['site:3'], false],
    ['everything', { by: 'all' }, DATA, [], true],
  ];
  it.each(cases)('a purge by %s', (_name, selector, key, tags, covered) => {
    const clock = new PurgeClock();
    clock.note({ selectors: [selector], build: '*' }, now);
    expect(clock.purgedSince(key, tags, now - 1000)).toBe(covered);
    // Begun after the purge: read what the purge left, so stored.
    expect(clock.purgedSince(key, tags, now + 1000)).toBe(false);
  });

  it('a hard purge of items only leaves them withdrawn; any other hard purge, the entry gone', () => {
    const tags = ['cat:2728', 'article:33727', 'article:2'];
    const clock = new PurgeClock();
    clock.note({ selectors: [{ by: 'tag', tag: 'article:33727' }], build: '*' }, now);
    clock.note({ selectors: [{ by: 'tag', tag: 'article:2' }], build: '*', soft: true }, now + 1);
    clock.note({ selectors: [{ by: 'tag', tag: 'article:2' }], build: '*' }, now + 2);
    expect(clock.coverOf(DATA, tags, now - 1000)).toEqual({ soft: false, withdrawn: ['article:2', 'article:33727'], at: now + 2 });
    clock.note({ selectors: [{ by: 'tag', tag: 'cat:2728' }], build: '*' }, now + 3);
    expect(clock.coverOf(DATA, tags, now - 1000)).toEqual({ soft: false, withdrawn: null, at: now + 3 });
    // Soft purges alone: stale from the newest.
    const soft = new PurgeClock();
    soft.note({ selectors: [{ by: 'tag', tag: 'article:2' }], build: '*', soft: true }, now);
    soft.note({ selectors: [{ by: 'tag', tag: 'cat:2728' }], build: '*', soft: true }, now + 5);
    expect(soft.coverOf(DATA, tags, now - 1000)).toEqual({ soft: true, at: now + 5 });
  });

  it('a purge of one build leaves another build’s entries alone', () => {
    const clock = new PurgeClock();
    clock.note({ selectors: [{ by: 'all' }], build: 'b2' }, now);
    expect(clock.purgedSince(PAGE, [], now - 1000)).toBe(false);
    clock.note({ selectors: [{ by: 'all' }], build: 'b1' }, now);
    expect(clock.purgedSince(PAGE, [], now - 1000)).toBe(true);
  });

  it('forgets purges older than any load can run', () => {
    const clock = new PurgeClock();
    clock.note({ selectors: [{ by: 'all' }], build: '*' }, Date.now() - 10 * 60_000);
    clock.note({ selectors: [{ by: 'tag', tag: 'grey' }], build: '*' });
    expect(clock.purgedSince(DATA, [], 0)).toBe(false);
    expect(clock.purgedSince(DATA, ['grey'], 0)).toBe(true);
  });
});
