/** /metrics in Prometheus text format, scraped from a live portal on Redis after real traffic. */
import request from 'supertest';
import { HOME_CATID } from '../../shared/constants';
import { describeWithRedis, testRedisUrl } from '../support/requirements';
import { startTestPortal, type TestPortal } from '../support/portal';
import { firstHomeArticle } from '../support/upstream-data';
import { announce } from '../../server/cache/coherence';
import { deleteKeys, eventually, withRedis } from './cache/redis-helpers';

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
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ redisUrl: testRedisUrl() });
  });
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), t.cachePrefix);
    await t.close();
  });

  it('counts requests, cache results, upstream calls, coalesced waiters, L1 bytes and Redis', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    t.upstream.api.control.setLatency([{ path: '/', ms: 30 }]);
    await Promise.all(Array.from({ length: 8 }, () => request(t.url).get(`/detail/${raw.catid}/${raw.id}`)));
    t.upstream.api.control.reset();
    await request(t.url).get(`/detail/${raw.catid}/${raw.id}`);
    await request(t.url).get('/no/such/page/here');
    await request(t.url).get('/healthz');

    const res = await request(t.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(value(text, 'portal_http_requests_total', { route: 'detail', status: '200' })).toBe(9);
    expect(value(text, 'portal_http_requests_total', { route: 'not-found', status: '404' })).toBe(1);
    expect(value(text, 'portal_http_requests_total', { route: 'healthz', status: '200' })).toBe(1);
    expect(value(text, 'portal_http_request_duration_seconds_count', { route: 'detail' })).toBe(9);
    expect(value(text, 'portal_cache_results_total', { kind: 'page', route: 'detail', site: 'www.qnnews.cn', result: 'HIT' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'portal_cache_results_total', { kind: 'page', route: 'detail', site: 'www.qnnews.cn', result: 'MISS' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'portal_cache_results_total', { kind: 'data', route: '_', site: 'shared', result: 'MISS' })).toBeGreaterThanOrEqual(1);
    // Site labels are domains from the site table, never ids or raw Host headers.
    for (const match of text.matchAll(/\bsite="([^"]*)"/g)) expect(match[1]).toMatch(/^(shared|[a-z0-9]+\.qnnews\.cn)$/);
    expect(value(text, 'portal_http_first_byte_seconds_count', { route: 'detail' })).toBe(9);
    expect(value(text, 'portal_render_duration_seconds_count', { route: 'detail', outcome: 'clean' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'portal_upstream_response_bytes_count', { call: 'show' })).toBe(1);
    expect(value(text, 'portal_upstream_response_bytes_sum', { call: 'show' })).toBeGreaterThan(100);
    expect(value(text, 'portal_redis_command_duration_seconds_count', { op: 'get', outcome: 'ok' })).toBeGreaterThan(0);
    expect(value(text, 'portal_redis_command_duration_seconds_count', { op: 'set', outcome: 'ok' })).toBeGreaterThan(0);
    expect(value(text, 'portal_cache_invalidation_subscribed')).toBe(1);
    expect(value(text, 'portal_cache_l1_unverified')).toBe(0);
    expect(value(text, 'portal_build_info', { build: t.portal.assets.buildId, version: '0.1.0', node: process.version })).toBe(1);
    expect(value(text, 'portal_upstream_duration_seconds_count', { call: 'show', outcome: 'ok' })).toBe(1);
    expect(value(text, 'portal_cache_coalesced_waiters_total', { where: 'process' })).toBeGreaterThan(0);
    expect(value(text, 'portal_cache_l1_bytes')).toBeGreaterThan(0);
    expect(value(text, 'portal_redis_up')).toBe(1);
    expect(value(text, 'portal_process_resident_memory_bytes')).toBeGreaterThan(0);
    // Paths never become labels: an odd URL is counted under its route id or area.
    expect(text).not.toContain('/no/such/page/here');
  });

  it('counts renders aborted at RENDER_TIMEOUT_MS and invalidations received', async () => {
    // A prefix of its own: nothing cached, so the page renders and its slow block is loaded.
    const slow = await startTestPortal({ redisUrl: testRedisUrl(), upstream: t.upstream, env: { RENDER_TIMEOUT_MS: '300' } });
    try {
      // Hot news (a suspense block) takes longer than the render deadline: the render is aborted.
      t.upstream.api.control.setLatency([{ path: '/list/3281/', ms: 2000 }]);
      const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
      await request(slow.url).get(`/detail/${raw.catid}/${raw.id}`);
      t.upstream.api.control.reset();
      await withRedis(testRedisUrl(), (client) => announce(client, slow.cachePrefix, { kind: 'evict', keys: ['a', 'b', 'c'] }));
      const text = await eventually(
        async () => (await request(slow.url).get('/metrics')).text,
        (metrics) => (value(metrics, 'portal_cache_invalidated_keys_total') ?? 0) >= 3,
        5000,
      );
      expect(value(text, 'portal_render_aborts_total', { route: 'detail' })).toBeGreaterThanOrEqual(1);
      expect(value(text, 'portal_render_duration_seconds_count', { route: 'detail', outcome: 'aborted' })).toBeGreaterThanOrEqual(1);
      expect(value(text, 'portal_cache_invalidations_received_total', { kind: 'evict' })).toBeGreaterThanOrEqual(1);
    } finally {
      t.upstream.api.control.reset();
      await deleteKeys(testRedisUrl(), slow.cachePrefix);
      await slow.close();
    }
  });
});
