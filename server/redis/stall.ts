/**
 * A Redis that is connected but does not answer: a frozen server (SIGSTOP, a stalled VM), a black-holed network, a
 * long-running command. The connection stays 'ready', so without this every cache command would wait out its
 * timeout (REDIS_COMMAND_TIMEOUT_MS), one after another: a miss's read, its lock (retried while connected, for up
 * to CACHE_LOCK_TIMEOUT_MS), its second read and its writes cost a reader 9 s under a 4 s freeze (issue 35).
 *
 * Once one cache command times out, the cache treats Redis as down (RedisStore.isAvailable, RedisLock.isConnected:
 * reads miss, writes are skipped, no lock is taken or waited for) until a probe (PING, one at a time) is answered
 * again. A stall so costs each reader at most the command it was already waiting on: one command timeout.
 */
import type { RedisClient } from './client';

/** ioredis's error for a command not answered within commandTimeout. */
const TIMED_OUT = 'Command timed out';
const PROBE_EVERY_MS = 100;

export interface RedisStallOptions {
  /** Called when a stall starts (true) and when Redis answers again (false, with how long it lasted). */
  onChange?: (stalled: boolean, ms: number) => void;
  probeEveryMs?: number;
}

export class RedisStall {
  private since: number | null = null;
  private probing = false;

  constructor(
    private readonly client: RedisClient,
    private readonly options: RedisStallOptions = {},
  ) {}

  /** Whether a command timed out and nothing has answered since: the cache then works without Redis. */
  get stalled(): boolean {
    return this.since !== null;
  }

  /** The command's answer or error, unchanged; its timeout starts a stall, its answer ends one. */
  watch<T>(command: Promise<T>): Promise<T> {
    return command.then(
      (value) => {
        this.answered();
        return value;
      },
      (error: unknown) => {
        if (error instanceof Error && error.message === TIMED_OUT) this.timedOut();
        throw error;
      },
    );
  }

  private timedOut(): void {
    if (this.since !== null) return;
    this.since = Date.now();
    this.options.onChange?.(true, 0);
    void this.probeUntilAnswered();
  }

  private answered(): void {
    if (this.since === null) return;
    const ms = Date.now() - this.since;
    this.since = null;
    this.options.onChange?.(false, ms);
  }

  /** One PING at a time (each bounded by the command timeout) until one is answered or the client is closed. */
  private async probeUntilAnswered(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      while (this.since !== null && this.client.status !== 'end') {
        await new Promise((resolve) => setTimeout(resolve, this.options.probeEveryMs ?? PROBE_EVERY_MS).unref());
        await this.watch(this.client.ping()).catch(() => undefined);
      }
    } finally {
      this.probing = false;
    }
  }
}
