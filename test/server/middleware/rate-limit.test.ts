/**
 * Per-IP limits on the data endpoints, which a spoofed X-Forwarded-For cannot get around; per reader behind the
 * proxy docker-compose.yml ships; and one log line when forwarding headers come from a peer nobody trusts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
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

describe('behind the shipped proxy (docker-compose.yml, deploy/nginx.conf)', () => {
  const root = path.resolve(__dirname, '../../..');
  const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };
  const nginx = readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');

  it('nginx names the client itself (no client-sent X-Forwarded-For passes), and both portals trust it', () => {
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    for (const name of ['portal-1', 'portal-2']) expect(compose.services[name]!.environment!.TRUST_PROXY).toBeTruthy();
  });

  it('counts each reader separately with the compose TRUST_PROXY, as nginx forwards them', async () => {
    const trustProxy = compose.services['portal-1']!.environment!.TRUST_PROXY!;
    // The test's requests come from loopback; the compose value must trust it as it trusts nginx on the compose network.
    const t = await startTestPortal({ env: { DATA_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: trustProxy } });
    try {
      expect(await hit(t, 3, '203.0.113.1')).toEqual([200, 200, 429]);
      expect(await hit(t, 2, '198.51.100.7')).toEqual([200, 200]);
      expect(t.logs.filter((line) => String(line.msg).includes('TRUST_PROXY does not trust'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('forwarding headers from an untrusted peer', () => {
  it.each([
    ['X-Forwarded-For', '203.0.113.1'],
    ['Forwarded', 'for=203.0.113.1;proto=https'],
    ['X-Real-IP', '203.0.113.1'],
  ])('%s is logged once, naming the peer and TRUST_PROXY', async (header, value) => {
    const t = await startTestPortal({ env: { TRUST_PROXY: '10.0.0.0/8' } });
    // Nothing printed beside the JSON log: express-rate-limit reports its own header checks on the console.
    const printed = jest.spyOn(console, 'error');
    const warned = jest.spyOn(console, 'warn');
    try {
      for (const path of ['/_data/resource/hotNews', '/api/column_subscribe/list', '/about', '/about', '/healthz']) {
        expect((await request(t.url).get(path).set(header, value)).status).toBeLessThan(500);
      }
      const warnings = t.logs.filter((line) => String(line.msg).includes('TRUST_PROXY does not trust'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, header: header.toLowerCase(), peer: expect.stringMatching(/127\.0\.0\.1/) });
      expect([...printed.mock.calls, ...warned.mock.calls]).toEqual([]);
    } finally {
      printed.mockRestore();
      warned.mockRestore();
      await t.close();
    }
  });

  it('is not logged for a trusted proxy, nor for requests without forwarding headers', async () => {
    for (const [env, header] of [
      [{ TRUST_PROXY: 'loopback' }, true],
      [{}, false],
    ] as const) {
      const t = await startTestPortal({ env });
      try {
        const req = request(t.url).get('/about');
        expect((await (header ? req.set('X-Forwarded-For', '203.0.113.1') : req)).status).toBe(200);
        expect(t.logs.filter((line) => String(line.msg).includes('TRUST_PROXY does not trust'))).toEqual([]);
      } finally {
        await t.close();
      }
    }
  });
});
