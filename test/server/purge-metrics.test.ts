/**
 * Purges are counted where monitoring sees them (issue 34): a real portal on the real Redis whose edge
 * (EDGE_PURGE_URLS) is a dead address and with one announced instance that never answers. A hook purge then
 * answers 202, logs a warning naming both, and moves the partial, edge and instance counters and the duration
 * histogram; a refused call counts as refused. Every purge series is listed at 0 before the first purge.
 */
import Redis from 'ioredis';
import { freePort } from '../../scripts/free-port';
import { instanceIndexKey, instanceKey, writeAnnouncement } from '../../server/cache/instances';
import { scrape, sampleOf } from '../support/metrics';
import { callHook } from '../support/publish-hook';
import { redisPortalSuite } from '../support/redis-portal';
import { describeWithRedis, testRedisUrl } from '../support/requirements';

const SECRET = 'purge-metrics-suite-secret-purge-metrics-suite';
const GHOST = 'ghost-instance-that-never-acknowledges';

describeWithRedis()('purge metrics', () => {
  let deadEdge = '';
  // Before the suite's portal starts (hooks run in order): nothing listens there, the edge refuses every connection.
  beforeAll(async () => {
    deadEdge = `http://127.0.0.1:${await freePort()}`;
  });
  const suite = redisPortalSuite({
    env: () => ({ PURGE_SECRET: SECRET, EDGE_PURGE_URLS: deadEdge, EDGE_PURGE_TOKEN: 'edge-token-of-the-purge-metrics-suite', EDGE_PURGE_TIMEOUT_MS: '1000' }),
  });

  it('lists every purge series at 0 before the first purge (each source, outcome, configured edge), and every fixed-label counter', async () => {
    const text = await scrape(suite.portal.url);
    for (const source of ['hook', 'cli'])
      for (const outcome of ['complete', 'partial', 'refused', 'failed'])
        expect([source, outcome, sampleOf(text, 'portal_purges_total', { source, outcome })]).toEqual([source, outcome, 0]);
    expect(sampleOf(text, 'portal_purge_edge_unacknowledged_total', { source: 'hook', edge: deadEdge })).toBe(0);
    expect(sampleOf(text, 'portal_purge_instances_unacknowledged_total', { source: 'hook' })).toBe(0);
    expect(sampleOf(text, 'portal_purge_duration_seconds_count', { source: 'hook' })).toBe(0);
    // And the other counters of a fixed label set (issue 35): Redis outages and reconnects, cache errors.
    for (const redis of ['cache', 'session']) {
      expect([redis, sampleOf(text, 'portal_redis_outages_total', { redis })]).toEqual([redis, 0]);
      expect([redis, sampleOf(text, 'portal_redis_reconnects_total', { redis })]).toEqual([redis, 0]);
      expect([redis, sampleOf(text, 'portal_redis_outage_seconds', { redis })]).toEqual([redis, 0]);
    }
    expect(sampleOf(text, 'portal_cache_errors_total', { kind: 'data', error: 'stale-if-error' })).toBe(0);
    expect(sampleOf(text, 'portal_cache_coalesced_waiters_total', { where: 'cluster' })).toBe(0);
    expect(sampleOf(text, 'portal_cache_invalidations_received_total', { kind: 'policy' })).toBe(0);
  });

  it('counts a purge the edge and an instance did not acknowledge as partial, and warns naming both', async () => {
    const client = new Redis(testRedisUrl());
    try {
      // An instance announced in Redis that never answers (killed without withdrawing its key).
      const ghost = { id: GHOST, host: 'gone', pid: 1, url: 'http://127.0.0.1:9', build: 'x', startedAt: new Date().toISOString() };
      await writeAnnouncement(client, suite.portal.cachePrefix, ghost, 60_000);
      const answer = await callHook(suite.portal.url, SECRET, { tags: ['article:1'], soft: false });
      expect(answer.status).toBe(202);
      expect(answer.body.instances.missing).toEqual([GHOST]);
    } finally {
      await client.del(instanceKey(suite.portal.cachePrefix, GHOST));
      await client.zrem(instanceIndexKey(suite.portal.cachePrefix), GHOST);
      client.disconnect();
    }
    const text = await scrape(suite.portal.url);
    expect(sampleOf(text, 'portal_purges_total', { source: 'hook', outcome: 'partial' })).toBe(1);
    expect(sampleOf(text, 'portal_purges_total', { source: 'hook', outcome: 'complete' })).toBe(0);
    expect(sampleOf(text, 'portal_purge_edge_unacknowledged_total', { source: 'hook', edge: deadEdge })).toBe(1);
    expect(sampleOf(text, 'portal_purge_instances_unacknowledged_total', { source: 'hook' })).toBe(1);
    expect(sampleOf(text, 'portal_purge_duration_seconds_count', { source: 'hook' })).toBe(1);
    const warning = suite.portal.logs.find((line) => typeof line.msg === 'string' && line.msg.startsWith('publish hook:') && line.msg.includes('partial'));
    expect(warning?.level).toBe(40); // pino's warn
    expect(warning?.msg).toContain(`instances not acknowledged: ${GHOST}`);
    expect(warning?.msg).toContain(`edge ${deadEdge} not acknowledged`);
  });

  it('counts a call it refuses (a wrong signature) as refused, and nothing as purged', async () => {
    const before = await scrape(suite.portal.url);
    const answer = await callHook(suite.portal.url, 'not-the-secret-of-this-portal-not-the-secret', { tags: ['article:1'], soft: false });
    expect(answer.status).toBe(401);
    const after = await scrape(suite.portal.url);
    expect(sampleOf(after, 'portal_purges_total', { source: 'hook', outcome: 'refused' })).toBe(
      (sampleOf(before, 'portal_purges_total', { source: 'hook', outcome: 'refused' }) ?? 0) + 1,
    );
    expect(sampleOf(after, 'portal_purge_duration_seconds_count', { source: 'hook' })).toBe(
      sampleOf(before, 'portal_purge_duration_seconds_count', { source: 'hook' }),
    );
  });
});
