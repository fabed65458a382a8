/**
 * A flag the CMS switches without calling the publish hook (grey mode) reaches readers within FLAG_WATCH_S and
 * one re-render: every instance reloads it past the caches on that period, and the one that finds it changed
 * from what the data cache held purges the pages built on it everywhere, as the hook would (docs/cache.md
 * "Flags"). The purge is soft: readers keep being answered while pages re-render with the new flag.
 */
import type { Logger } from '../platform/logger';

export type FlagCheck = 'unchanged' | 'changed' | 'failed';

export interface FlagWatchOptions<T> {
  /** The flag's name in log lines (`grey`). */
  name: string;
  /** The flag read from the CMS now and stored in the data cache, with what the cache held before. */
  reload: () => Promise<{ held: T | null; now: T }>;
  /** Purges every page built on the flag (on every instance and edge). */
  purge: (change: { was: T; now: T }) => Promise<void>;
  everyMs: number;
  logger: Logger;
}

/** Each period is drawn within ±20 % of everyMs, so instances started together do not ask in step. */
const JITTER = 0.2;

export class FlagWatch<T> {
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<FlagCheck> | null = null;
  private stopped = false;

  constructor(private readonly options: FlagWatchOptions<T>) {}

  start(): void {
    if (this.options.everyMs > 0) this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.checking;
  }

  /**
   * One look. Nothing held is no change: no page can show a value the cache never had. A failed reload (the CMS
   * or Redis away) is told by the failure and outage logs already; the next period tries again.
   */
  async check(): Promise<FlagCheck> {
    const { name, reload, purge, logger } = this.options;
    try {
      const { held, now } = await reload();
      if (held === null || held === now) return 'unchanged';
      logger.info({ flag: name, was: held, now }, `flag ${name} changed in the CMS without the publish hook: purging the pages built on it`);
      await purge({ was: held, now });
      return 'changed';
    } catch (error) {
      logger.debug({ flag: name, err: error }, `flag ${name} not checked`);
      return 'failed';
    }
  }

  private schedule(): void {
    const delay = this.options.everyMs * (1 - JITTER + 2 * JITTER * Math.random());
    this.timer = setTimeout(() => {
      this.checking = this.check();
      void this.checking.finally(() => {
        this.checking = null;
        if (!this.stopped) this.schedule();
      });
    }, delay);
    this.timer.unref();
  }
}
