/**
 * The portal's metrics (metrics.ts) over what their gauges read: the cache's stores, Redis's health and memory, the
 * edges purges go to. Made after the caches, which report to them from then on (create-cache.ts).
 */
import type { PortalCaches } from './cache/create-cache';
import { MemoryStore } from './cache/memory-store';
import { Metrics } from './platform/metrics';
import { redisMemory } from './redis/memory-info';
import { CACHE_MODES } from './cache/tiered-store';

export function createMetrics(caches: PortalCaches, build: string): Metrics {
  const { store, redis, tiered, bus, health } = caches;
  return new Metrics({
    l1Bytes: () => tiered?.l1Bytes ?? (store instanceof MemoryStore ? store.bytes : 0),
    redisUp: async () => (health ? health.isUp() : null),
    redisReadOnly: async () => (health ? health.state() === 'read-only' : null),
    invalidationSubscribed: () => (bus ? bus.isSubscribed() : null),
    l1Unverified: () => tiered?.servingUnverified() ?? false,
    cacheMode: () => tiered?.mode() ?? null,
    cacheModes: CACHE_MODES,
    build,
    l1Capacity: () => {
      const l1 = tiered?.l1 ?? (store instanceof MemoryStore ? store : null);
      return l1 ? { maxBytes: l1.maxBytes, evictions: l1.evictions } : null;
    },
    redisMemory: async () => (redis ? redisMemory(redis.client) : null),
    edges: caches.edgePurger?.edges ?? [],
  });
}
