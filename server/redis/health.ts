/**
 * Whether the configured Redis can serve the cache, for /readyz and `portal_redis_up`. A plain or Sentinel
 * client is healthy when connected (through Sentinel that means connected to a node that says it is the
 * master). A cluster client is 'ready' as soon as it knows the slot table, which it still does when a master
 * has died; so a cluster is healthy only when every master it routes to answers and the cluster says
 * `cluster_state:ok` (every slot served).
 */
import { isCluster, type RedisClient } from './client';

const PROBE_TIMEOUT_MS = 1000;
const CACHE_MS = 1000;

export class RedisHealth {
  private last: { at: number; up: boolean } | null = null;
  private running: Promise<boolean> | null = null;

  constructor(private readonly client: RedisClient) {}

  /** The last answer when under a second old (readiness probes and scrapes must not hammer Redis). */
  async isUp(): Promise<boolean> {
    // A lost connection shows at once (it costs nothing to look); only the probe's answer is kept a second.
    if (this.client.status !== 'ready') return false;
    if (this.last && Date.now() - this.last.at < CACHE_MS) return this.last.up;
    this.running ??= probe(this.client)
      .catch(() => false)
      .then((up) => {
        this.last = { at: Date.now(), up };
        this.running = null;
        return up;
      });
    return this.running;
  }
}

async function probe(client: RedisClient): Promise<boolean> {
  if (client.status !== 'ready') return false;
  if (!isCluster(client)) return true;
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
