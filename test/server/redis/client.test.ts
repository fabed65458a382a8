/** The client factory makes the kind of client each REDIS_URL form names, with the portal's fail-fast settings. */
import type Redis from 'ioredis';
import { createRedisClient, isCluster } from '../../../server/redis/client';
import { parseRedisTarget } from '../../../server/platform/redis-target';

// 'cli' clients connect only when asked, so these never open a socket.
const make = (url: string, role: 'portal' | 'cli' = 'cli') => {
  const client = createRedisClient(parseRedisTarget(url), { role, commandTimeoutMs: 750 });
  client.on('error', () => undefined);
  return client;
};

describe('createRedisClient', () => {
  it('makes a plain client for redis:// with a command timeout and no per-command retries', () => {
    const client = make('redis://127.0.0.1:6390/3') as Redis;
    expect(isCluster(client)).toBe(false);
    expect(client.options).toMatchObject({ host: '127.0.0.1', port: 6390, db: 3, commandTimeout: 750, maxRetriesPerRequest: 0, lazyConnect: true });
    client.disconnect();
  });

  it('makes a Sentinel client that asks for the named master with the data nodes’ credentials', () => {
    const client = make('redis-sentinel://portal:pw@127.0.0.1:26390,127.0.0.1:26391/portalmaster/2') as Redis;
    expect(isCluster(client)).toBe(false);
    expect(client.options).toMatchObject({
      sentinels: [
        { host: '127.0.0.1', port: 26390 },
        { host: '127.0.0.1', port: 26391 },
      ],
      name: 'portalmaster',
      db: 2,
      username: 'portal',
      password: 'pw',
    });
    client.disconnect();
  });

  it('makes a Cluster client over the seed nodes, failing fast when not ready and after few redirections', () => {
    const client = make('redis-cluster://:pw@127.0.0.1:7100,127.0.0.1:7101', 'portal');
    expect(isCluster(client)).toBe(true);
    if (!isCluster(client)) return;
    expect(client.options).toMatchObject({ enableOfflineQueue: false, maxRedirections: 4 });
    expect(client.options.redisOptions).toMatchObject({ password: 'pw', commandTimeout: 750, maxRetriesPerRequest: 0 });
    client.disconnect();
  });
});
