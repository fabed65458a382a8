/** /metrics in Prometheus text format, scraped from a live portal on Redis after real traffic. */
import request from 'supertest';
import { HOME_CATID } from '../../shared/constants';
import { describeWithRedis } from '../support/requirements';
import { redisPortalSuite } from '../support/redis-portal';
import { firstHomeArticle } from '../support/upstream-data';

/** The value of one series, e.g. value(text, 'portal_redis_up'), or with labels (exact set, any order). */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, wanted]) => found[key] === wanted)) return Number(match[3]);
  }
  return undefined;
}

describeWithRedis()('/metrics', () => {
  const suite = redisPortalSuite();

  it('counts requests, cache results, upstream calls, coalesced waiters, L1 bytes and Redis', async () => {
    const raw = await firstHomeArticle(suite.portal.upstream.url, HOME_CATID);
    suite.portal.upstream.api.control.setLatency([{ path: '/', ms: 30 }]);
    await Promise.all(Array.from({ length: 8 }, () => request(suite.portal.url).get(`/detail/${raw.catid}/${raw.id}`)));
    suite.portal.upstream.api.control.reset();
    await request(suite.portal.url).get(`/detail/${raw.catid}/${raw.id}`);
    await request(suite.portal.url).get('/no/such/page/here');
    await request(suite.portal.url).get('/healthz');

    const res = await request(suite.portal.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(value(text, 'portal_http_requests_total', { route: 'detail', status: '200' })).toBe(9);
    expect(value(text, 'portal_http_requests_total', { route: 'not-found', status: '404' })).toBe(1);
    expect(value(text, 'portal_http_requests_total', { route: 'healthz', status: '200' })).toBe(1);
    expect(value(text, 'portal_http_request_duration_seconds_count', { route: 'detail' })).toBe(9);
    expect(value(text, 'portal_cache_results_total', { kind: 'page', site: '0', result: 'HIT' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'portal_cache_results_total', { kind: 'page', site: '0', result: 'MISS' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'portal_cache_results_total', { kind: 'data', site: '_', result: 'MISS' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'portal_upstream_duration_seconds_count', { call: 'show', outcome: 'ok' })).toBe(1);
    expect(value(text, 'portal_cache_coalesced_waiters_total', { where: 'process' })).toBeGreaterThan(0);
    expect(value(text, 'portal_cache_l1_bytes')).toBeGreaterThan(0);
    expect(value(text, 'portal_redis_up')).toBe(1);
    expect(value(text, 'portal_process_resident_memory_bytes')).toBeGreaterThan(0);
    // Paths never become labels: an odd URL is counted under its route id or area.
    expect(text).not.toContain('/no/such/page/here');
  });
});
