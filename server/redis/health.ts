/**
 * Whether the configured Redis can serve the cache, for /readyz, `portal_redis_up` and `portal_redis_read_only`.
 * A plain or Sentinel client is up when connected to a node whose `ROLE` is master; connected to a replica (a
 * failover demoted the portal's Redis, or REDIS_URL names one) it is 'read-only': hits are served, every write
 * (entries, locks, sessions, sign-ins) is refused with READONLY. A cluster client is 'ready' as soon as it knows the slot table, which it still does when a master
 * has died; so a cluster is healthy only when every master it routes to answers and the cluster says
 * `cluster_state:ok` (every slot served).
 */
import { BackgroundCheck } from '../platform/background-check';
import { isCluster, type RedisClient } from './client';

const PROBE_TIMEOUT_MS = 1000;
const ANSWER_KEPT_MS = 1000;

/** 'read-only': it answers, and refuses writes (a replica). */
export type RedisState = 'up' | 'read-only' | 'down';

export class RedisHealth {
  private readonly check: BackgroundCheck<RedisState>;
  private readonly onReady = (): void => this.check.runNow();

  constructor(private readonly client: RedisClient) {
    this.check = new BackgroundCheck<RedisState>(() => probe(client), { maxAgeMs: ANSWER_KEPT_MS, boundMs: PROBE_TIMEOUT_MS, failed: 'down' });
    // A reconnect is checked at once rather than at the next period: readiness follows Redis back within a probe.
    client.on('ready', this.onReady);
  }

  /**
   * The last probe's answer, at once: readiness probes and scrapes never wait on Redis (a frozen one would hold
   * them past the load balancer's timeout). A lost connection shows at once, since it costs nothing to look.
   */
  state(): RedisState {
    if (this.client.status !== 'ready') return 'down';
    return this.check.current();
  }

  /** Answering, read-only or not. */
  isUp(): boolean {
    return this.state() !== 'down';
  }

  stop(): void {
    this.check.stop();
    this.client.off('ready', this.onReady);
  }
}

async function probe(client: RedisClient): Promise<RedisState> {
  if (client.status !== 'ready') return 'down';
  if (!isCluster(client)) return roleOf(await withTimeout(client.role()));
  return (await clusterServes(client)) ? 'up' : 'down';
}

/** ROLE's first element: 'master', or 'slave' for a replica (which refuses writes unless set otherwise). */
function roleOf(reply: unknown): RedisState {
  return Array.isArray(reply) && reply[0] === 'master' ? 'up' : 'read-only';
}

async function clusterServes(client: RedisClient): Promise<boolean> {
  if (!isCluster(client)) return false;
  const masters = client.nodes('master');
  if (masters.length === 0) return false;
  const answers = await Promise.all(
    masters.map((node) =>
      withTimeout(node.ping()).then(
        (reply) => reply === 'PONG',
        () => false,
      ),
    ),
  );
  if (answers.includes(false)) return false;
  const info = await withTimeout(masters[0]!.cluster('INFO'));
  return /^cluster_state:ok\s*$/m.test(String(info));
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Redis health probe timed out')), PROBE_TIMEOUT_MS);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
