/**
 * A dependency's state kept by a check that runs beside its readers, so whoever reads it (/readyz, a scrape) gets
 * the last answer at once and never waits on the dependency. A frozen Redis or a stalled content API would
 * otherwise hold a load balancer's probe past its own timeout, and the edge would take a portal that can serve out
 * of rotation.
 *
 * The check runs once at start, then again whenever its answer is read older than `maxAgeMs`: the dependency is
 * asked as often as someone wants to know (probes every few seconds), and not at all by an idle instance.
 */

export interface BackgroundCheckOptions<T> {
  /** An answer older than this is refreshed when read (the read still gets it at once); one check at a time. */
  maxAgeMs: number;
  /** A check still unanswered after this reads as `failed`, as an answer that never comes is one. */
  boundMs: number;
  /** What the check reads as before its first answer, and once a check outlives its bound. */
  failed: T;
}

export class BackgroundCheck<T> {
  private last: T;
  private answeredAt: number | null = null;
  private runningSince: number | null = null;
  private stopped = false;

  constructor(
    private readonly check: () => Promise<T>,
    private readonly options: BackgroundCheckOptions<T>,
  ) {
    this.last = options.failed;
    this.runNow();
  }

  /** The last answer, or `failed` while the check in flight has outlived its bound; a stale answer starts a check. */
  current(): T {
    const now = Date.now();
    if (this.answeredAt === null || now - this.answeredAt >= this.options.maxAgeMs) this.runNow();
    if (this.runningSince !== null && now - this.runningSince > this.options.boundMs) return this.options.failed;
    return this.last;
  }

  /** Starts a check unless one is in flight: a change seen elsewhere (a reconnect) need not wait for a read. */
  runNow(): void {
    if (this.runningSince !== null || this.stopped) return;
    this.runningSince = Date.now();
    void this.check()
      .catch((): T => this.options.failed)
      .then((state) => {
        this.last = state;
        this.answeredAt = Date.now();
        this.runningSince = null;
      });
  }

  /** No check starts after this (the instance is closing its clients). */
  stop(): void {
    this.stopped = true;
  }
}
