/**
 * Redis store (ioredis). Commands fail fast while disconnected (no offline queue) and have a timeout, so a dead
 * or slow Redis costs a request a few milliseconds, not a hang; ioredis keeps reconnecting in the background
 * and caching resumes on its own when Redis is back.
 */
import Redis from 'ioredis';
import type { CacheEntry } from './entry';
import { retentionMs } from './entry';
import { decodeEntry, encodeEntry } from './entry-codec';
import type { CacheStore } from './store';
import { prefixOfKey, tagSetKey } from './tags';

/** Keys per DEL/UNLINK call, so a purge of a whole build does not block Redis on one huge command. */
const DELETE_BATCH = 500;

export interface RedisStoreOptions {
  url: string;
  commandTimeoutMs?: number;
  onError?: (error: Error) => void;
}

const MAX_RECONNECT_DELAY_MS = 2000;

export class RedisStore implements CacheStore {
  readonly kind = 'redis' as const;
  readonly client: Redis;

  constructor(options: RedisStoreOptions) {
    this.client = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 500,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    });
    // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
    this.client.on('error', (error: Error) => options.onError?.(error));
  }

  async get(key: string): Promise<CacheEntry | null> {
    if (!this.isAvailable()) return null;
    try {
      // As bytes: page entries are binary (entry-codec.ts).
      const raw = await this.client.getBuffer(key);
      return raw === null ? null : decodeEntry(raw);
    } catch {
      return null;
    }
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    if (!this.isAvailable()) return;
    const retention = retentionMs(entry);
    const prefix = prefixOfKey(key);
    try {
      const pipeline = this.client.pipeline().set(key, encodeEntry(entry), 'PX', retention);
      for (const tag of entry.tags) {
        const setKey = tagSetKey(prefix, tag);
        // The set lives as long as its longest-lived member: NX gives a new set an expiry, GT only extends it.
        pipeline.sadd(setKey, key).pexpire(setKey, retention, 'NX').pexpire(setKey, retention, 'GT');
      }
      await pipeline.exec();
    } catch {
      // A cache write that fails is a future miss, nothing more.
    }
  }

  async delete(key: string): Promise<void> {
    if (!this.isAvailable()) return;
    try {
      await this.client.del(key);
    } catch {
      // As for set.
    }
  }

  async keysMatching(glob: string): Promise<string[]> {
    const found = new Set<string>();
    let cursor = '0';
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', glob, 'COUNT', 1000);
      for (const key of keys) found.add(key);
      cursor = next;
    } while (cursor !== '0');
    return [...found];
  }

  async keysWithTag(prefix: string, tag: string): Promise<string[]> {
    return this.client.smembers(tagSetKey(prefix, tag));
  }

  async deleteKeys(keys: readonly string[], tags?: { prefix: string; tags: readonly string[] }): Promise<number> {
    let deleted = 0;
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      // UNLINK frees memory in the background: a large purge does not stall other clients.
      deleted += await this.client.unlink(...keys.slice(start, start + DELETE_BATCH));
    }
    const setKeys = (tags?.tags ?? []).map((tag) => tagSetKey(tags!.prefix, tag));
    if (setKeys.length > 0) await this.client.unlink(...setKeys);
    return deleted;
  }

  isAvailable(): boolean {
    return this.client.status === 'ready';
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
