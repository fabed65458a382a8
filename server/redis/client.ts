/**
 * The one place a Redis client is made, from what REDIS_URL names (target.ts): a plain server, a master found
 * through Sentinel, or a Redis Cluster. Everything else (cache store, lock, sessions, policy, pub/sub, the CLI,
 * readiness) takes the client this returns and works the same on all three.
 *
 * The portal's clients fail fast: no offline queue, no per-command retries, a command timeout, so a dead or
 * slow Redis costs a request milliseconds (a miss), never a hang; reconnection goes on in the background.
 * The CLI's clients connect once and give up at once, so an operator gets a clear error instead of a wait.
 */
import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Credentials, RedisTarget } from '../platform/redis-target';

export type RedisClient = Redis | Cluster;

export interface ClientOptions {
  /** 'portal': long-lived, reconnects forever, fails commands fast. 'cli': connect() once, no retries. */
  role: 'portal' | 'cli';
  commandTimeoutMs?: number;
}

const CONNECT_TIMEOUT_MS = 2000;
const MAX_RECONNECT_DELAY_MS = 2000;
const CLUSTER_MAX_REDIRECTIONS = 4;

export function isCluster(client: RedisClient): client is Cluster {
  return client.isCluster;
}

export function createRedisClient(target: RedisTarget, options: ClientOptions): RedisClient {
  const common = connectionOptions(options);
  switch (target.mode) {
    case 'standalone':
      return new Redis(target.url, { ...common, ...reconnection(options) });
    case 'sentinel':
      return new Redis({
        ...common,
        ...reconnection(options),
        ...credentials(target),
        sentinels: target.sentinels,
        name: target.masterName,
        db: target.db,
        // No failoverDetector: with it, a client here sometimes never reconnected after its master was killed.
        // A killed master closes the connection anyway, and a master demoted to replica (a manual failover)
        // answers writes with READONLY: reconnect then, through Sentinel, to the new master.
        reconnectOnError: (error) => error.message.startsWith('READONLY'),
        ...(options.role === 'cli' ? { sentinelRetryStrategy: () => null } : {}),
      });
    case 'cluster':
      return new Cluster(target.nodes, clusterOptions(common, target, options));
  }
}

function connectionOptions(options: ClientOptions): RedisOptions {
  return {
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    ...(options.commandTimeoutMs !== undefined ? { commandTimeout: options.commandTimeoutMs } : {}),
    ...(options.role === 'cli' ? { lazyConnect: true } : { enableOfflineQueue: false }),
  };
}

function reconnection(options: ClientOptions): Pick<RedisOptions, 'retryStrategy'> {
  return { retryStrategy: options.role === 'cli' ? () => null : backoff };
}

function backoff(attempt: number): number {
  return Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS);
}

function credentials(target: Credentials): Credentials {
  return {
    ...(target.username !== undefined ? { username: target.username } : {}),
    ...(target.password !== undefined ? { password: target.password } : {}),
  };
}

function clusterOptions(common: RedisOptions, target: Credentials, options: ClientOptions): ClusterOptions {
  const { lazyConnect, enableOfflineQueue, ...perNode } = common;
  return {
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    clusterRetryStrategy: options.role === 'cli' ? () => null : backoff,
    slotsRefreshTimeout: CONNECT_TIMEOUT_MS,
    // ioredis retries CLUSTERDOWN (a master lost, every node refusing) and TRYAGAIN up to maxRedirections times,
    // 100 ms apart: 16 by default, 1.6 s per command. A cache read must fail fast instead; four still rides
    // out a MOVED/ASK during resharding and the moment of a failover.
    maxRedirections: CLUSTER_MAX_REDIRECTIONS,
    retryDelayOnClusterDown: 100,
    redisOptions: { ...perNode, ...credentials(target) },
  };
}

/**
 * A connection for SUBSCRIBE. Plain and Sentinel: a duplicate that queues and reconnects forever (Sentinel
 * finds the new master after a failover). Cluster: PUBLISH is broadcast to every node, so any one node will do;
 * this picks one the cluster client knows and gives up on it after a few failed reconnects (it may be gone for
 * good after a failover), ending the connection so the caller picks another. Null until the cluster client
 * has learnt its nodes.
 */
export function openSubscriber(client: RedisClient): Redis | null {
  if (!isCluster(client)) return client.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  const nodes = client.nodes('all');
  const node = nodes[Math.floor(Math.random() * nodes.length)];
  if (!node) return null;
  return node.duplicate({
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    lazyConnect: false,
    readOnly: false,
    retryStrategy: (attempt) => (attempt > SUBSCRIBER_NODE_RETRIES ? null : 200),
  });
}

const SUBSCRIBER_NODE_RETRIES = 3;
