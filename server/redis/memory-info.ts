/**
 * The cache Redis's memory as Redis itself reports it (`INFO memory`, `INFO stats`), for /metrics: bytes used,
 * `maxmemory` (0: no limit) and keys evicted since the server started. The cache runs `volatile-lru`, so a full
 * Redis evicts entries (and tag sets) instead of refusing writes: rising evictions mean a smaller cache than
 * planned and tag purges that can miss entries (docs/operations.md). On a cluster, the masters' figures summed.
 */
import type { RedisMemory } from '../platform/metrics';
import { isCluster, type RedisClient } from './client';

/** One `field:value` line of an INFO answer as a number; NaN when absent. */
function field(info: string, name: string): number {
  const match = new RegExp(`^${name}:(\\d+)\\s*$`, 'm').exec(info);
  return match ? Number(match[1]) : Number.NaN;
}

async function ofNode(node: Pick<RedisClient, 'info'>): Promise<RedisMemory | null> {
  const [memory, stats] = await Promise.all([node.info('memory'), node.info('stats')]);
  const figures = { usedBytes: field(memory, 'used_memory'), maxBytes: field(memory, 'maxmemory'), evictedKeys: field(stats, 'evicted_keys') };
  return Object.values(figures).every(Number.isFinite) ? figures : null;
}

/** Null when Redis is not connected or does not say (a proxy that hides INFO). */
export async function redisMemory(client: RedisClient): Promise<RedisMemory | null> {
  if (client.status !== 'ready') return null;
  const nodes = isCluster(client) ? client.nodes('master') : [client];
  const answers = await Promise.all(nodes.map((node) => ofNode(node).catch(() => null)));
  if (answers.length === 0 || answers.includes(null)) return null;
  return answers.reduce<RedisMemory>(
    (sum, answer) => ({
      usedBytes: sum.usedBytes + answer!.usedBytes,
      maxBytes: sum.maxBytes + answer!.maxBytes,
      evictedKeys: sum.evictedKeys + answer!.evictedKeys,
    }),
    { usedBytes: 0, maxBytes: 0, evictedKeys: 0 },
  );
}
