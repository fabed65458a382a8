/**
 * What an on-call engineer reads about failing content calls: per call family (`show`, `list`, `menu`…), one line
 * when it starts failing (the error, with its stack), one a minute while it goes on (how many failures, the last
 * error), and one when it answers again (after how long, how many failures). A content API that is down fails
 * every call of every render: one warning per failed call was seven lines with stacks for each page asked, a flood
 * that hid the one line that mattered. Metrics count every failure (portal_upstream_duration_seconds_count{call,outcome}).
 */
import type { Logger } from '../platform/logger';

interface Failing {
  since: number;
  /** Failures since the last line about this call. */
  unreported: number;
  total: number;
  lastLineAt: number;
  lastError: string;
}

export interface UpstreamFailureLogOptions {
  /** How often a line says a call goes on failing (default a minute; tests shorten it). */
  everyMs?: number;
  now?: () => number;
}

export class UpstreamFailureLog {
  private readonly failing = new Map<string, Failing>();
  private readonly everyMs: number;
  private readonly now: () => number;

  constructor(
    private readonly logger: Logger,
    options: UpstreamFailureLogOptions = {},
  ) {
    this.everyMs = options.everyMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** A call of this family failed (no answer, an HTTP error, an answer the portal cannot use). */
  failed(call: string, error: unknown): void {
    const now = this.now();
    const message = error instanceof Error ? error.message : String(error);
    const known = this.failing.get(call);
    if (!known) {
      this.failing.set(call, { since: now, unreported: 0, total: 1, lastLineAt: now, lastError: message });
      this.logger.warn({ call, err: error }, 'upstream call failed');
      return;
    }
    known.unreported += 1;
    known.total += 1;
    known.lastError = message;
    if (now - known.lastLineAt < this.everyMs) return;
    this.logger.warn(
      { call, failures: known.unreported, failingSeconds: Math.round((now - known.since) / 1000), err: known.lastError },
      `upstream call ${call} still failing: ${known.unreported} failures since the last line`,
    );
    known.unreported = 0;
    known.lastLineAt = now;
  }

  /** A call of this family was answered (a success or the CMS's not-found): closes its failing spell. */
  answered(call: string): void {
    const known = this.failing.get(call);
    if (!known) return;
    this.failing.delete(call);
    const failingSeconds = Math.round((this.now() - known.since) / 1000);
    this.logger.info(
      { call, failures: known.total, failingSeconds },
      `upstream call ${call} answers again after ${failingSeconds} s (${known.total} failures)`,
    );
  }
}
