/**
 * INTERNAL_PORT: /metrics and /_internal move to a listener of their own (what the Kubernetes manifests expose
 * to Prometheus and the CLI, never to the Ingress); the public port answers neither, and still serves pages and
 * the probes. Without it, both stay on the public port (deploy/nginx.conf refuses them there).
 */
import request from 'supertest';
import { freePort } from '../../scripts/free-port';
import { listenInternal, type InternalListener } from '../../server/internal-listener';
import Redis from 'ioredis';
import { announcedInstances } from '../../server/cache/instances';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithRedis, testRedisUrl } from '../support/requirements';
import { deleteKeys, eventually } from './cache/redis-helpers';

jest.setTimeout(120_000);

describe('INTERNAL_PORT', () => {
  let t: TestPortal;
  let internal: InternalListener | null;
  beforeAll(async () => {
    const port = await freePort();
    t = await startTestPortal({ env: { INTERNAL_PORT: String(port) } });
    internal = await listenInternal(t.portal, port, '127.0.0.1');
  });
  afterAll(async () => {
    await internal?.close();
    await t?.close();
  });

  it('serves /metrics, /_internal and the probes on the internal port only', async () => {
    expect(internal).not.toBeNull();
    const base = internal!.url;
    const metrics = await request(base).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^portal_build_info\{/m);
    await request(base).get('/_internal/l1?key=x').expect(200);
    await request(base).get('/healthz').expect(200);
    expect((await request(base).get('/readyz').expect(200)).body).toMatchObject({ status: 'ready' });
    // Nothing else: a page asked of the internal port is a 404 saying what the port is for.
    expect((await request(base).get('/about').expect(404)).text).toMatch(/serves \/metrics, \/_internal/);

    // The public port: pages and probes, and neither /metrics nor /_internal in any spelling.
    await request(t.url).get('/about').expect(200);
    await request(t.url).get('/healthz').expect(200);
    for (const path of ['/metrics', '/METRICS', '/metrics/', '/_internal/l1?key=x', '/_INTERNAL/l1?key=x']) {
      const res = await request(t.url).get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).not.toMatch(/portal_build_info|"entries"/);
    }
  });

  it('is refused at start when not a port', async () => {
    const { loadConfig } = await import('../../server/platform/config');
    expect(() => loadConfig({ UPSTREAM_URL: 'http://127.0.0.1:1', INTERNAL_PORT: '70000' })).toThrow(/INTERNAL_PORT="70000"/);
    expect(loadConfig({ UPSTREAM_URL: 'http://127.0.0.1:1', INTERNAL_PORT: '' }).INTERNAL_PORT).toBeUndefined();
    expect(loadConfig({ UPSTREAM_URL: 'http://127.0.0.1:1', INTERNAL_PORT: '9090' }).INTERNAL_PORT).toBe(9090);
  });
});

describeWithRedis()('INTERNAL_PORT with Redis', () => {
  it('is where the instance announces itself for the cache CLI (with Redis)', async () => {
    const port = await freePort();
    const withRedis = await startTestPortal({ redisUrl: testRedisUrl(), env: { INTERNAL_PORT: String(port) } });
    const own = await listenInternal(withRedis.portal, port, '127.0.0.1');
    const redis = new Redis(testRedisUrl());
    try {
      const announced = await eventually(
        () => announcedInstances(redis, withRedis.cachePrefix),
        (instances) => instances.length === 1,
        10_000,
      );
      expect(announced[0]!.url).toBe(`http://127.0.0.1:${port}`);
      // What `portal-cache instances` asks there answers.
      for (const path of ['/healthz', '/readyz', '/metrics']) await request(announced[0]!.url).get(path).expect(200);
    } finally {
      redis.disconnect();
      await own?.close();
      await deleteKeys(testRedisUrl(), withRedis.cachePrefix);
      await withRedis.close();
    }
  });
});
