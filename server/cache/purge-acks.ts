/**
 * Which instances applied a purge: each writes its acknowledgement (the L1 copies it dropped) to a Redis hash the
 * purger polls, and the purger waits only for the instances that are alive.
 */
import type { RedisClient } from '../redis/client';

export interface InstanceAck {
  id: string;
  /** L1 copies it dropped. */
  entries: number;
}

/** How long a purger waits for the instances' acknowledgements before naming the missing ones. */
export const ACK_TIMEOUT_MS = 2000;
const ACK_POLL_MS = 20;

/**
 * True for the one instance that claims purge `id` for the purge counters: a purge run outside the portals (the
 * CLI) reaches every instance on the bus, and counted by each it would read as one per instance.
 */
export async function claimCount(client: RedisClient, prefix: string, id: string): Promise<boolean> {
  return (await client.set(`${prefix}:purge:${id}:counted`, '1', 'EX', 3600, 'NX')) === 'OK';
}

export function ackKey(prefix: string, id: string): string {
  return `${prefix}:purge:${id}:acks`;
}

/**
 * The acknowledgements of purge `id` (instance id → L1 copies it dropped), polled until each of `expected` has
 * answered or the time is up: an instance killed without withdrawing its announcement never answers.
 */
export async function acknowledgementsOf(
  client: RedisClient,
  prefix: string,
  id: string,
  expected: readonly string[],
  timeoutMs = ACK_TIMEOUT_MS,
): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const acks = await client.hgetall(ackKey(prefix, id));
    if (expected.every((instanceId) => instanceId in acks) || Date.now() >= deadline) return acks;
    await new Promise((resolve) => setTimeout(resolve, ACK_POLL_MS));
  }
}

/**
 * The announced instances less those a newer one replaced at the same address: an instance killed without
 * withdrawing its announcement (a crash) stays listed until the key expires, but whatever answers at its address
 * now is its successor, and a purge waiting for the dead one's acknowledgement would read as partial for nothing.
 */
export function liveInstances<T extends { id: string; url: string; startedAt: string }>(instances: readonly T[]): T[] {
  const newest = new Map<string, T>();
  for (const instance of instances) {
    const known = newest.get(instance.url);
    if (!known || known.startedAt < instance.startedAt) newest.set(instance.url, instance);
  }
  return instances.filter((instance) => newest.get(instance.url) === instance);
}
