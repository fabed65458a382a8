/**
 * One page request per request (server/edge/page-request.ts) and the page state rules beside it
 * (server/render/page-state.ts): what the address and key hold, what is carried from the hit path to the chain,
 * and when a page with no data becomes the 503.
 */
import http from 'node:http';
import { Socket } from 'node:net';
import type { PageState } from '../../../shared/app-state';
import { MAIN_SITE, REGIONAL_SITES } from '../../../shared/sites';
import { Cache } from '../../../server/cache/cache';
import { MemoryStore } from '../../../server/cache/memory-store';
import { PageCache } from '../../../server/cache/page-cache';
import { carryLookup, classified, pageKind, pageRequestOf, routeLabel, takeLookup, targetOf } from '../../../server/edge/page-request';
import { generatedPaths, seeded } from '../../support/generated-paths';
import { unavailableIfNoData, UNAVAILABLE_MESSAGE } from '../../../server/render/page-status';
import { CallRecorder } from '../../../server/upstream/content-service';

const pageCache = new PageCache(new Cache(new MemoryStore(1024 * 1024)), { prefix: 'request', buildId: 'b1' });

describe('the page request', () => {
  it('keys a page by its site and the query its page reads, so tracking parameters share the entry', () => {
    const plain = pageRequestOf('/V1/2728?page=2', MAIN_SITE.domain, pageCache);
    const tracked = pageRequestOf('/V1/2728?utm_source=wechat&page=2&spm=1', MAIN_SITE.domain, pageCache);
    expect(tracked.address.path).toBe('/V1/2728?page=2');
    expect(tracked.key).toBe(plain.key);
    expect(pageRequestOf('/V1/2728?page=3', MAIN_SITE.domain, pageCache).key).not.toBe(plain.key);
    expect(pageRequestOf('/V1/2728?page=2', REGIONAL_SITES[0]!.domain, pageCache).key).not.toBe(plain.key);
  });

  it('takes an unknown host for the main site, whatever it names', () => {
    const request = pageRequestOf('/home', 'evil.example:8080', pageCache);
    expect(request.site.id).toBe(MAIN_SITE.id);
    expect(pageRequestOf('/home?from=//evil.example/', 'evil.example', pageCache).address.path).toBe('/home');
  });

  it('reads a target as the URL parse against a fixed origin does, with or without taking the parse', () => {
    const random = seeded(20261124);
    const queries = ['?page=2', '?q=%E9%9D%92&type=2', '?a=1&a=2', '?x=%zz', '?', '#top', '?page=2#top', '?q=+a+'];
    const queryOf = () => (random() < 0.5 ? '' : queries[Math.floor(random() * queries.length)]!);
    const targets = generatedPaths(10000, 20261125).map((path) => path + queryOf());
    // What each reading gives, or that it refused the target (a protocol-relative `//%zz` has no valid host).
    const answer = (read: () => { pathname: string; params: URLSearchParams }) => {
      try {
        const { pathname, params } = read();
        return JSON.stringify({ pathname, params: [...params] });
      } catch {
        return 'refused';
      }
    };
    const byParse = (target: string) =>
      answer(() => {
        const url = new URL(target, 'http://portal.invalid');
        return { pathname: url.pathname, params: url.searchParams };
      });
    const differing = targets.filter((target) => answer(() => targetOf(target)) !== byParse(target));
    expect(differing).toEqual([]);
    // Both ways are taken: many targets are plain paths, many are not.
    const plain = targets.filter((target) => byParse(target) === JSON.stringify({ pathname: target, params: [] })).length;
    expect(plain).toBeGreaterThan(targets.length / 10);
    expect(plain).toBeLessThan(targets.length * 0.8);
  });

  it('labels a page by its route id and its policy by its page kind; anything else by the kind of match', () => {
    const article = pageRequestOf('/detail/2728/33727', undefined, pageCache);
    expect([routeLabel(article), pageKind(article)]).toEqual([article.address.match.kind === 'page' ? article.address.match.route.id : '', 'detail']);
    const missing = pageRequestOf('/no/such/page', undefined, pageCache);
    expect([routeLabel(missing), pageKind(missing)]).toEqual(['not-found', '']);
  });

  it('carries the hit path’s lookup on the request, taken once', () => {
    const socket = new Socket();
    const req = new http.IncomingMessage(socket);
    const request = classified(pageRequestOf('/home', undefined, pageCache), {
      userAgent: undefined,
      preview: false,
      sessionCookie: false,
      readerCookie: false,
    });
    expect(takeLookup(req)).toBeUndefined();
    carryLookup(req, { request, lookup: null });
    expect(takeLookup(req)).toEqual({ request, lookup: null });
    expect(takeLookup(req)).toBeUndefined();
    socket.destroy();
  });
});

describe('a page with no data', () => {
  // Only its status and its loader's calls decide; its data plays no part.
  const page: PageState = {
    path: '/about',
    routeId: null,
    page: 'error',
    params: {},
    status: 200,
    data: null,
    head: { title: '关于我们', description: '', keywords: '' },
    now: 1_700_000_000,
  };

  it('is the 503 when every call of its loader failed with nothing held', () => {
    const calls = new CallRecorder();
    calls.degraded = true;
    const state = unavailableIfNoData(MAIN_SITE, page, calls);
    expect(state).toMatchObject({ status: 503, page: 'error', path: '/about', message: UNAVAILABLE_MESSAGE, now: page.now });
    expect(state.head.title).toBe(`${UNAVAILABLE_MESSAGE} - ${MAIN_SITE.seo_title}`);
  });

  it('stays the page when any call was answered, even from a stale copy', () => {
    const calls = new CallRecorder();
    calls.degraded = true;
    calls.record('qn:b:data:_:list:1', 'STALE', []);
    expect(unavailableIfNoData(MAIN_SITE, page, calls)).toBe(page);
    expect(unavailableIfNoData(MAIN_SITE, page, new CallRecorder())).toBe(page);
  });
});
