/**
 * Server-side storage of sessions and pending sign-ins: Redis when the portal has one (every instance sees a
 * session made by another), an in-process LRU otherwise. Keys are SHA-256 of the secret, so whoever can read
 * Redis (SCAN, MONITOR, a dump) sees no cookie value that would sign them in.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/client';
import { unavailable } from '../redis/store-unavailable';
import { LRUCache } from 'lru-cache';

/** Every method rejects with a StoreUnavailableError when the store cannot answer (server/redis/store-unavailable.ts). */
export interface SecretStore {
  get(secret: string): Promise<string | null>;
  put(secret: string, value: string, ttlSeconds: number): Promise<void>;
  /** Read and delete in one step, so a value is used at most once even across instances. */
  take(secret: string): Promise<string | null>;
  delete(secret: string): Promise<void>;
}

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export class RedisSecretStore implements SecretStore {
  constructor(
    private readonly client: RedisClient,
    /** e.g. 'portal:session' */
    private readonly namespace: string,
  ) {}

  private key(secret: string): string {
    return `${this.namespace}:${digest(secret)}`;
  }

  get(secret: string): Promise<string | null> {
    return this.client.get(this.key(secret)).catch(unavailable(`${this.namespace} read`));
  }

  async put(secret: string, value: string, ttlSeconds: number): Promise<void> {
    await this.client.set(this.key(secret), value, 'EX', ttlSeconds).catch(unavailable(`${this.namespace} write`));
  }

  take(secret: string): Promise<string | null> {
    return this.client.getdel(this.key(secret)).catch(unavailable(`${this.namespace} take`));
  }

  async delete(secret: string): Promise<void> {
    await this.client.del(this.key(secret)).catch(unavailable(`${this.namespace} delete`));
  }
}

/** Bounded: a flood of sign-in starts must not grow the process without limit. */
const MEMORY_MAX_ENTRIES = 100_000;

export class MemorySecretStore implements SecretStore {
  private readonly entries = new LRUCache<string, string>({ max: MEMORY_MAX_ENTRIES, ttlAutopurge: false });

  async get(secret: string): Promise<string | null> {
    return this.entries.get(digest(secret)) ?? null;
  }

  async put(secret: string, value: string, ttlSeconds: number): Promise<void> {
    this.entries.set(digest(secret), value, { ttl: ttlSeconds * 1000 });
  }

  async take(secret: string): Promise<string | null> {
    const key = digest(secret);
    const value = this.entries.get(key) ?? null;
    this.entries.delete(key);
    return value;
  }

  async delete(secret: string): Promise<void> {
    this.entries.delete(digest(secret));
  }
}
