/**
 * Multi-key work that must also hold on a Redis Cluster, where one command (or one pipeline) may only touch keys
 * its node serves and a multi-key command only keys of one slot (else CROSSSLOT):
 *
 * - SCAN runs on every master, since each holds only its own slots.
 * - Pipelines are split by the node that serves each key (`Batches`): one round trip per node.
 * - UNLINK of many keys is split by slot, in chunks, and the chunks ride those per-node pipelines.
 *
 * On a single Redis (plain or Sentinel) all of this collapses to one node and one pipeline, as before.
 */
import calculateSlot from 'cluster-key-slot';
import type { ChainableCommander } from 'ioredis';
import { isCluster, type RedisClient } from './client';

/** Keys per UNLINK, so a purge of a whole build does not block Redis on one huge command. */
export const DELETE_BATCH = 500;
const SCAN_COUNT = 1000;

/** Every key matching a glob (Redis MATCH syntax), from every master of a cluster. */
export async function scanAll(client: RedisClient, glob: string): Promise<string[]> {
  const nodes = isCluster(client) ? client.nodes('master') : [client];
  if (nodes.length === 0) throw new Error('Redis Cluster: no master known yet');
  const perNode = await Promise.all(nodes.map((node) => scanNode(node, glob)));
  return [...new Set(perNode.flat())];
}

async function scanNode(node: Pick<RedisClient, 'scan'>, glob: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', glob, 'COUNT', SCAN_COUNT);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/**
 * An executed pipeline's replies in queue order, or its first failed command's error: ioredis resolves a pipeline
 * even when its commands fail (a timeout included).
 */
function repliesOf(pairs: Array<[Error | null, unknown]> | null): unknown[] {
  const list = pairs ?? [];
  const failed = list.find(([error]) => error !== null);
  if (failed) throw failed[0];
  return list.map(([, reply]) => reply);
}

/** Pipelines grouped by the node serving each key's slot; on a single Redis, one pipeline. */
export class Batches {
  private readonly pipelines = new Map<string, ChainableCommander>();

  constructor(private readonly client: RedisClient) {}

  /** The pipeline to queue commands on `key` in (commands on other keys of the same node may share it). */
  for(key: string): ChainableCommander {
    const group = this.groupOf(key);
    let pipeline = this.pipelines.get(group);
    if (!pipeline) {
      pipeline = this.client.pipeline();
      this.pipelines.set(group, pipeline);
    }
    return pipeline;
  }

  /**
   * Runs every pipeline: the replies in queue order per pipeline, or the first failed command's error (a batch
   * that resolved would read as Redis having answered, and stall.ts would end a stall on it).
   */
  async exec(): Promise<unknown[]> {
    const results = await Promise.all([...this.pipelines.values()].map((pipeline) => pipeline.exec()));
    return results.flatMap(repliesOf);
  }

  /**
   * Queues one command per key (`queue` on the key's pipeline) and runs them: each key's reply, or the first
   * failed command's error (as exec). For commands whose reply must be matched to its key.
   */
  async perKey(keys: readonly string[], queue: (pipeline: ChainableCommander, key: string) => void): Promise<Map<string, unknown>> {
    const queued = new Map<ChainableCommander, string[]>();
    for (const key of keys) {
      const pipeline = this.for(key);
      queue(pipeline, key);
      const list = queued.get(pipeline);
      if (list) list.push(key);
      else queued.set(pipeline, [key]);
    }
    const replies = new Map<string, unknown>();
    const results = await Promise.all([...queued].map(async ([pipeline, list]) => ({ list, pairs: await pipeline.exec() })));
    for (const { list, pairs } of results) repliesOf(pairs).forEach((reply, index) => replies.set(list[index]!, reply));
    return replies;
  }

  private groupOf(key: string): string {
    if (!isCluster(this.client)) return '';
    const slot = calculateSlot(key);
    // ioredis accepts a cluster pipeline whose keys all live on one node; before the slot table is known,
    // grouping by slot is the safe fallback.
    return this.client.slots[slot]?.join(',') ?? `slot:${slot}`;
  }
}

/** UNLINKs the keys (slot by slot on a cluster) and resolves how many existed. Throws on any failed command. */
export async function unlinkAll(client: RedisClient, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const batches = new Batches(client);
  for (const group of bySlot(client, keys)) {
    for (let start = 0; start < group.length; start += DELETE_BATCH) {
      const chunk = group.slice(start, start + DELETE_BATCH);
      batches.for(chunk[0]!).unlink(...chunk);
    }
  }
  const counts = await batches.exec();
  return counts.reduce<number>((deleted, count) => deleted + Number(count), 0);
}

/** The keys Redis holds now, in the order given (EXISTS per key, one pipeline per node). Throws on any failed command. */
export async function existingKeys(client: RedisClient, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const replies = await new Batches(client).perKey(keys, (pipeline, key) => pipeline.exists(key));
  return keys.filter((key) => Number(replies.get(key)) === 1);
}

/**
 * Takes `members` out of the index set at `setKey`, except those that exist once that is done: a key written while
 * a purge ran (its SET, then its SADD) may have been indexed after the purge read the set, and must stay findable
 * by the next purge. Such a member is added back, the set kept as long as it lives. Throws on any failed command.
 */
export async function unindexGone(client: RedisClient, setKey: string, members: readonly string[]): Promise<void> {
  if (members.length === 0) return;
  const removal = new Batches(client);
  for (let start = 0; start < members.length; start += DELETE_BATCH) removal.for(setKey).srem(setKey, ...members.slice(start, start + DELETE_BATCH));
  await removal.exec();
  const lives = await new Batches(client).perKey(members, (pipeline, key) => pipeline.pttl(key));
  const back = new Batches(client);
  for (const [key, pttl] of lives) {
    const ms = Number(pttl);
    // -2: no such key; -1: a key without expiry (never written by the store), kept indexed for ever.
    if (ms === -2) continue;
    const keep = back.for(setKey).sadd(setKey, key);
    if (ms > 0) keep.pexpire(setKey, ms, 'NX').pexpire(setKey, ms, 'GT');
  }
  await back.exec();
}

function bySlot(client: RedisClient, keys: readonly string[]): string[][] {
  if (!isCluster(client)) return [[...keys]];
  const groups = new Map<number, string[]>();
  for (const key of keys) {
    const slot = calculateSlot(key);
    const group = groups.get(slot);
    if (group) group.push(key);
    else groups.set(slot, [key]);
  }
  return [...groups.values()];
}
