/**
 * Redis store (ioredis). Commands fail fast while disconnected (no offline queue) and have a timeout, so a dead
 * or slow Redis costs a request a few milliseconds, not a hang; ioredis keeps reconnecting in the background
 * and caching resumes on its own when Redis is back.
 */
import Redis from 'ioredis';
import type { CacheEntry } from './entry';
import { isCacheEntry, retentionMs } from './entry';
import type { CacheStore } from './store';

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
      const raw = await this.client.get(key);
      if (raw === null) return null;
      const parsed: unknown = JSON.parse(raw);
      return isCacheEntry(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    if (!this.isAvailable()) return;
    try {
      await this.client.set(key, JSON.stringify(entry), 'PX', retentionMs(entry));
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

  isAvailable(): boolean {
    return this.client.status === 'ready';
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
