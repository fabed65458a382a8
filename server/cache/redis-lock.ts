/**
 * Cross-instance coalescing (nginx's proxy_cache_lock): the first instance to miss a key takes a Redis lock
 * (SET NX PX) and loads it; the others poll the store until the entry appears. A live holder renews its lock
 * (compare-and-PEXPIRE) every third of the timeout and releases it (compare-and-delete) at the end, so a load
 * slower than the timeout is still done once; a holder that stops renewing loses it within the timeout. Every
 * script touches the lock key alone (Cluster-safe). Only a string expiring within the lock timeout is a lock
 * this code could have made: anything else in its place is taken over at once, so a stuck key heals on the next
 * miss. Waiters give up on a holder that renews for ever after `maxWaitMs` and load without the lock.
 */
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../redis/client';
import { LuaScript } from '../redis/lua-script';
import type { RedisStall } from '../redis/stall';
import { observed, type CommandObserver } from './redis-store';

/** Whether the key holds what a holder's SET PX made: a string expiring within the timeout (ARGV[2], ms). */
const IS_LIVE = `local function isLive(key, timeoutMs)
  if redis.call('type', key).ok ~= 'string' then return false end
  local left = redis.call('pttl', key)
  return left > 0 and left <= timeoutMs
end`;
/** 1: taken (the key was free); 2: taken over (it held something no holder made); 0: a live lock is there. */
const ACQUIRE_SCRIPT = new LuaScript(`${IS_LIVE}
local key, token, timeoutMs = KEYS[1], ARGV[1], tonumber(ARGV[2])
if redis.call('set', key, token, 'PX', timeoutMs, 'NX') then return 1 end
if isLive(key, timeoutMs) then return 0 end
redis.call('set', key, token, 'PX', timeoutMs)
return 2`);
const HELD_SCRIPT = new LuaScript(`${IS_LIVE}
if isLive(KEYS[1], tonumber(ARGV[1])) then return 1 end
return 0`);
// Compare first, by type: GET on a key of another type is an error, not a mismatch.
const RELEASE_SCRIPT =
  new LuaScript(`if redis.call('type', KEYS[1]).ok == 'string' and redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`);
const RENEW_SCRIPT =
  new LuaScript(`if redis.call('type', KEYS[1]).ok == 'string' and redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0`);

export interface KeyLock {
  /** A token when this caller now holds the lock; null when someone else does. Throws when Redis cannot answer. */
  tryAcquire(key: string): Promise<string | null>;
  release(key: string, token: string): Promise<void>;
  /** Runs `work` holding the lock `token` names: renewed while it runs, released when it ends (either way). */
  holdWhile<T>(key: string, token: string, work: () => Promise<T>): Promise<T>;
  /** Whether a live holder holds the lock (what no holder could have made in its place does not count). */
  isHeld(key: string): Promise<boolean>;
  /** Whether Redis is connected: a failed command then means 'slow', not 'down'. */
  isConnected(): boolean;
  readonly timeoutMs: number;
  readonly pollMs: number;
  /** The longest a caller waits for another's load, however long its holder keeps the lock alive. */
  readonly maxWaitMs: number;
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
    readonly maxWaitMs = 4 * timeoutMs,
    /** While Redis is connected but not answering (stall.ts), no lock is taken, waited for or released. */
    private readonly stall?: RedisStall,
  ) {}

  async tryAcquire(key: string): Promise<string | null> {
    this.failIfStalled();
    const token = randomBytes(12).toString('base64url');
    const answer = await this.observe(
      observed(this.onCommand, 'lock', () => this.watched(ACQUIRE_SCRIPT.runOnKey(this.client, lockKey(key), token, this.timeoutMs))),
    );
    return answer === 0 ? null : token;
  }

  /** Stalled: not sent (a reader would wait a command timeout for it); the lock expires on its own. */
  async release(key: string, token: string): Promise<void> {
    if (this.stall?.stalled) return;
    await this.watched(RELEASE_SCRIPT.runOnKey(this.client, lockKey(key), token));
  }

  async holdWhile<T>(key: string, token: string, work: () => Promise<T>): Promise<T> {
    const renewal = setInterval(
      () => {
        this.renew(key, token).then(
          (held) => {
            // Lost (it expired during a stall and another instance took it): renewing would extend theirs.
            if (!held) clearInterval(renewal);
          },
          // A failed renewal is retried at the next tick; the lock lives a whole timeout from the last one.
          () => undefined,
        );
      },
      Math.max(1, Math.floor(this.timeoutMs / 3)),
    );
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.release(key, token).catch(() => undefined);
    }
  }

  /** Extends the lock by a whole timeout if `token` still holds it; false when it does not. */
  async renew(key: string, token: string): Promise<boolean> {
    this.failIfStalled();
    return (await this.watched(RENEW_SCRIPT.runOnKey(this.client, lockKey(key), token, this.timeoutMs))) === 1;
  }

  async isHeld(key: string): Promise<boolean> {
    this.failIfStalled();
    return (await this.observe(this.watched(HELD_SCRIPT.runOnKey(this.client, lockKey(key), this.timeoutMs)))) === 1;
  }

  /** Connected, answering (not stalled) and not refusing: a failed command then means 'slow', not 'down'. */
  isConnected(): boolean {
    return this.client.status === 'ready' && !this.refused && this.stall?.stalled !== true;
  }

  private failIfStalled(): void {
    if (this.stall?.stalled) throw new Error('Redis is not answering (stalled)');
  }

  private watched<T>(command: Promise<T>): Promise<T> {
    return this.stall ? this.stall.watch(command) : command;
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
