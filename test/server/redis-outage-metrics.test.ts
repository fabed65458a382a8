/**
 * A Redis outage is counted (issue 35): a portal whose REDIS_URL names a port nothing listens on is in an outage
 * from its start, and /metrics says so: one outage begun, its length growing, no reconnect.
 */
import { freePort } from '../../scripts/free-port';
import { eventually } from './cache/redis-helpers';
import { scrape, sampleOf } from '../support/metrics';
import { startTestPortal, type TestPortal } from '../support/portal';

describe('Redis outage metrics', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
  });
  afterAll(() => t?.close());

  it('counts the outage once and reports how long it has lasted', async () => {
    const text = await eventually(
      () => scrape(t.url),
      (metrics) => (sampleOf(metrics, 'portal_redis_outage_seconds', { redis: 'cache' }) ?? 0) > 0.2,
      15_000,
    );
    expect(sampleOf(text, 'portal_redis_outages_total', { redis: 'cache' })).toBe(1);
    expect(sampleOf(text, 'portal_redis_outage_seconds', { redis: 'cache' })).toBeGreaterThan(0.2);
    expect(sampleOf(text, 'portal_redis_reconnects_total', { redis: 'cache' })).toBe(0);
    expect(sampleOf(text, 'portal_redis_outage_duration_seconds_count', { redis: 'cache' })).toBe(0);
    expect(sampleOf(text, 'portal_redis_outages_total', { redis: 'session' })).toBe(0);
  });
});
