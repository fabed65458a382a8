/**
 * A Redis client of the running portal (the cache's, or the sessions' own): its outages logged, and a cluster's
 * node errors logged once each rather than once per reconnect attempt.
 */
import type { Logger } from '../platform/logger';
import { createRedisClient, type RedisClient } from './client';
import type { OutageLog } from './outage-log';
import { parseRedisTarget } from '../platform/redis-target';

export function createPortalRedisClient(url: string, commandTimeoutMs: number, logger: Logger, outageLog: OutageLog): RedisClient {
  const client = createRedisClient(parseRedisTarget(url), { role: 'portal', commandTimeoutMs });
  // Its start, every minute of it, a new error within it and its end: one line each, for every outage.
  outageLog.watch(client);
  // A cluster's per-node errors (a master gone, a failover) arrive as 'node error', not 'error'.
  let lastNodeError = '';
  client.on('node error', (error: Error, node: string) => {
    if (`${node} ${error.message}` === lastNodeError) return;
    lastNodeError = `${node} ${error.message}`;
    logger.warn({ err: error.message, node }, 'redis cluster node unavailable');
  });
  client.on('ready', () => (lastNodeError = ''));
  return client;
}
