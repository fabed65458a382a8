/**
 * The refusals no cache could have spared a reader. While the CMS fails or stalls, a page that nothing holds
 * (no edge, portal or data copy: nobody has read it yet) cannot be rendered, and the portal says so: 503 with
 * Retry-After. Any page a reader was given earlier in the day is held (its answers are kept for stale-if-error,
 * a day: docs/cache.md), so refusing it is an error like any other. The day counts the first kind apart.
 */
export interface Refusal {
  status: number;
  retryAfter: string | undefined;
}

export class FirstViews {
  /** When each page was last given (the moment the caller passes; performance.now() in the day). */
  private readonly given = new Map<string, number>();

  /** When `url` was last given a reader (a 200); undefined: never. */
  givenAt(url: string): number | undefined {
    return this.given.get(url);
  }

  /**
   * Notes what the reader of `url` got (`right`: what that page's reader should get) and says whether a wrong
   * answer was the CMS's alone to give: a 503 with Retry-After, while it was away, for a page nobody had been given.
   * Only a 200 gives the page: a phone's 302 to the mobile site is right, but renders nothing and stores nothing.
   */
  unheld(url: string, answer: Refusal, right: boolean, cmsAway: boolean, at = 0): boolean {
    if (right) {
      if (answer.status === 200) this.given.set(url, at);
      return false;
    }
    return cmsAway && answer.status === 503 && answer.retryAfter !== undefined && !this.given.has(url);
  }
}
