/**
 * The usual set-up of a cache suite on the real Redis: a portal (or two instances sharing one upstream and one
 * fresh key prefix) started before the suite, the reference API's fault controls reset after each test, and the
 * prefix's keys deleted and the portals stopped after the suite. Fields are filled in by beforeAll.
 */
import { deleteKeys } from '../server/cache/redis-helpers';
import { startTestPortal, type TestPortal, type TestPortalOptions } from './portal';
import { testRedisUrl } from './requirements';

export interface RedisPortals {
  portal: TestPortal;
  /** The second instance, when the suite asked for two. */
  peer: TestPortal;
}

type OwnOptions = Omit<TestPortalOptions, 'redisUrl' | 'upstream' | 'cachePrefix'>;

export type RedisPortalOptions = OwnOptions & {
  instances?: 1 | 2;
  /** What the second instance does differently (e.g. `pageHits: false`, to compare the hit path with the chain). */
  peer?: OwnOptions;
};

export function redisPortalSuite(options: RedisPortalOptions = {}): RedisPortals {
  const { instances = 1, peer = {}, ...portalOptions } = options;
  const suite = {} as RedisPortals;
  beforeAll(async () => {
    suite.portal = await startTestPortal({ ...portalOptions, redisUrl: testRedisUrl() });
    if (instances === 2) {
      const shared = { upstream: suite.portal.upstream, cachePrefix: suite.portal.cachePrefix };
      suite.peer = await startTestPortal({ ...portalOptions, ...peer, ...shared, redisUrl: testRedisUrl() });
    }
  });
  afterEach(() => suite.portal?.upstream.api.control.reset());
  afterAll(async () => {
    if (suite.portal) await deleteKeys(testRedisUrl(), suite.portal.cachePrefix);
    await suite.peer?.close();
    await suite.portal?.close();
  });
  return suite;
}
