/**
 * What an on-call engineer reads about a Redis outage: one line when it starts (the error), one every minute while
 * it lasts (how long, and how the cache serves meanwhile), one when a different error shows, one when the mode
 * changes (the outage window has passed: L1 serves with short TTLs), and one when it ends (after how long). A
 * down Redis reports every reconnect attempt as an error; only these lines are written, and a second outage with
 * the same error is logged like the first.
 */
import type { Logger } from '../platform/logger';
import type { Metrics, RedisRole } from '../platform/metrics';
import type { RedisClient } from './client';

export interface OutageLogOptions {
  logger: Logger;
  /** The Redis named in each line (its URL, password redacted). */
  redis: string;
  /** What the outage means for readers, said in the line that opens it. */
  consequence: string;
  /** Extra fields for each line while it lasts (e.g. the cache's mode). */
  describe?: () => Record<string, unknown>;
  /** How often a line says the outage goes on (default a minute; tests shorten it). */
  everyMs?: number;
  /** For the metrics: an outage opens, ends (after `seconds`), the client connects again after having been connected. */
  onStarted?: () => void;
  onEnded?: (seconds: number) => void;
  onReconnected?: () => void;
}

export class OutageLog {
  private since: number | null = null;
  private lastError = '';
  private lastDescription = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: OutageLogOptions) {}

  /** Follows the client's errors and reconnections. */
  watch(client: RedisClient): void {
    // Without an 'error' listener ioredis reports every failed reconnect as an unhandled 'error' event.
    client.on('error', (error: Error) => this.failed(error.message));
    let connectedBefore = false;
    client.on('ready', () => {
      if (connectedBefore) this.options.onReconnected?.();
      connectedBefore = true;
      this.recovered();
    });
  }

  /** A connection or command error: opens the outage, or notes a new error within it. */
  failed(message: string): void {
    if (this.since === null) {
      this.since = Date.now();
      this.lastError = message;
      this.lastDescription = this.description();
      this.options.logger.warn({ ...this.fields(), err: message }, `redis unavailable: outage started; ${this.options.consequence}`);
      this.timer = setInterval(() => this.tick(), this.options.everyMs ?? 60_000);
      this.timer.unref();
      this.options.onStarted?.();
      return;
    }
    if (message === this.lastError) return;
    this.lastError = message;
    this.options.logger.warn({ ...this.fields(), err: message }, 'redis outage goes on with another error');
  }

  /** Connected (again): closes the outage. */
  recovered(): void {
    if (this.since === null) return;
    const seconds = this.seconds();
    const exact = (Date.now() - this.since) / 1000;
    this.stopTimer();
    this.since = null;
    this.options.onEnded?.(exact);
    this.lastError = '';
    this.options.logger.info({ redis: this.options.redis, outageSeconds: seconds }, `redis back after ${seconds} s: outage ended`);
  }

  stop(): void {
    this.stopTimer();
  }

  private tick(): void {
    if (this.since === null) return;
    const description = this.description();
    const changed = description !== this.lastDescription;
    this.lastDescription = description;
    const what = changed ? 'redis outage goes on, and the cache now serves differently' : 'redis outage goes on';
    this.options.logger.warn({ ...this.fields(), err: this.lastError }, `${what} (${this.seconds()} s)`);
  }

  private fields(): Record<string, unknown> {
    return { redis: this.options.redis, outageSeconds: this.seconds(), ...this.options.describe?.() };
  }

  private description(): string {
    return JSON.stringify(this.options.describe?.() ?? {});
  }

  private seconds(): number {
    return this.since === null ? 0 : Math.round((Date.now() - this.since) / 1000);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** What the metrics count of an outage, by which Redis it is of. */
type OutageCounter = Pick<Metrics, 'redisOutageStarted' | 'redisOutageEnded' | 'redisReconnected'>;

/** The portal's outage logs: one per Redis client, counted by the metrics once they exist, stopped with the portal. */
export class OutageLogs {
  private readonly logs: OutageLog[] = [];

  constructor(
    private readonly logger: Logger,
    /** Null until the metrics are made (after the cache, whose stores they read). */
    private readonly metrics: () => OutageCounter | null,
    /** How often a line says the outage goes on (a minute unless set); tests shorten it. */
    private readonly everyMs?: number,
  ) {}

  open(redis: string, consequence: string, role: RedisRole, describe?: () => Record<string, unknown>): OutageLog {
    const log = new OutageLog({
      logger: this.logger,
      redis,
      consequence,
      onStarted: () => this.metrics()?.redisOutageStarted(role),
      onEnded: (seconds) => this.metrics()?.redisOutageEnded(role, seconds),
      onReconnected: () => this.metrics()?.redisReconnected(role),
      ...(describe ? { describe } : {}),
      ...(this.everyMs ? { everyMs: this.everyMs } : {}),
    });
    this.logs.push(log);
    return log;
  }

  stop(): void {
    for (const log of this.logs) log.stop();
  }
}
