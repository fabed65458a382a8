/** Per-IP limits on the data endpoints, which a spoofed X-Forwarded-For cannot get around. */
import request from 'supertest';
import { startTestPortal, type TestPortal } from '../../support/portal';

async function hit(t: TestPortal, times: number, forwardedFor?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const req = request(t.url).get('/_data/resource/hotNews');
    statuses.push((await (forwardedFor ? req.set('X-Forwarded-For', forwardedFor) : req)).status);
  }
  return statuses;
}

describe('data endpoint rate limit', () => {
  it('answers 429 past the limit, whatever X-Forwarded-For claims when no proxy is trusted', async () => {
    const t = await startTestPortal({ env: { DATA_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      expect(await hit(t, 3)).toEqual([200, 200, 200]);
      const blocked = await request(t.url).get('/_data/resource/hotNews').set('X-Forwarded-For', '203.0.113.9');
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toBe('请求过于频繁，请稍后再试');
      expect(blocked.headers.ratelimit).toBeDefined();
      expect((await request(t.url).get('/')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('counts each client separately behind a trusted proxy', async () => {
    const t = await startTestPortal({ env: { DATA_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'loopback' } });
    try {
      expect(await hit(t, 3, '203.0.113.1')).toEqual([200, 200, 429]);
      expect(await hit(t, 2, '203.0.113.2')).toEqual([200, 200]);
    } finally {
      await t.close();
    }
  });
});
