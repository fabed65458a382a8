/**
 * Cross-instance coalescing (nginx's proxy_cache_lock): the first instance to miss a key takes a Redis lock
 * (SET NX PX) and loads it; the others poll the store until the entry appears. The lock has a timeout, so a
 * holder that dies (crash, network split) blocks the key for at most that long; after it, a waiter loads
 * itself. Release is compare-and-delete, so a slow holder never releases a lock that has passed to another.
 * The release script touches the lock key alone, so it runs on a Redis Cluster as it does on one Redis.
 */
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../redis/client';
import { observed, type CommandObserver } from './redis-store';

const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface KeyLock {
  /** A token when this caller now holds the lock; null when someone else does. Throws when Redis cannot answer. */
  tryAcquire(key: string): Promise<string | null>;
  release(key: string, token: string): Promise<void>;
  /** Whether anyone holds the lock. */
  isHeld(key: string): Promise<boolean>;
  /** Whether Redis is connected: a failed command then means 'slow', not 'down'. */
  isConnected(): boolean;
  readonly timeoutMs: number;
  readonly pollMs: number;
}

export function lockKey(key: string): string {
  const end = key.indexOf(':');
  return end < 0 ? `lock:${key}` : `${key.slice(0, end)}:lock:${key.slice(end + 1)}`;
}

/** ioredis's error for a command not answered within commandTimeout: Redis is there, only slow. */
const TIMED_OUT = 'Command timed out';

export class RedisLock implements KeyLock {
  /** The last lock command was refused rather than slow: on a cluster, its node is gone though the client is 'ready'. */
  private refused = false;

  constructor(
    private readonly client: RedisClient,
    readonly timeoutMs: number,
    readonly pollMs = 25,
    private readonly onCommand?: CommandObserver,
  ) {}

  async tryAcquire(key: string): Promise<string | null> {
    const token = randomBytes(12).toString('base64url');
    const answer = await this.observe(observed(this.onCommand, 'lock', () => this.client.set(lockKey(key), token, 'PX', this.timeoutMs, 'NX')));
    return answer === 'OK' ? token : null;
  }

  async release(key: string, token: string): Promise<void> {
    await this.client.eval(RELEASE_SCRIPT, 1, lockKey(key), token);
  }

  async isHeld(key: string): Promise<boolean> {
    return (await this.observe(this.client.exists(lockKey(key)))) === 1;
  }

  isConnected(): boolean {
    return this.client.status === 'ready' && !this.refused;
  }

  /** Notes whether a failure was a timeout (wait and retry) or a refusal (a node down: load without the lock). */
  private async observe<T>(command: Promise<T>): Promise<T> {
    try {
      const answer = await command;
      this.refused = false;
      return answer;
    } catch (error) {
      this.refused = !(error instanceof Error && error.message === TIMED_OUT);
      throw error;
    }
  }
}
