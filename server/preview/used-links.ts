/**
 * Each signed preview link opens one preview: a link seen again (forwarded, from a browser's history, captured)
 * is refused. Remembered in Redis when the portal has one, so every instance knows (SET NX, for as long as a link
 * lasts); in this process otherwise (the embedded set-up has one instance).
 */
import type { RedisClient } from '../redis/client';
import { PREVIEW_LINK_SECONDS } from './contract';

/** The shared store could not say whether the link was used: the editor is asked to try again (503). */
export class UsedLinksUnavailable extends Error {
  constructor(cause: unknown) {
    super(`cannot check the link against the links already used: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'UsedLinksUnavailable';
  }
}

export class UsedLinks {
  private readonly seen = new Map<string, number>();

  constructor(private readonly redis: { client: RedisClient; prefix: string } | null) {}

  /** True the first time the signature is presented; kept past the link's life, plus the clock skew allowed. */
  async firstUse(signature: string, nowMs: number = Date.now()): Promise<boolean> {
    const keepSeconds = 2 * PREVIEW_LINK_SECONDS;
    if (this.redis) {
      try {
        const set = await this.redis.client.set(`${this.redis.prefix}:preview:link:${signature}`, '1', 'EX', keepSeconds, 'NX');
        return set === 'OK';
      } catch (error) {
        throw new UsedLinksUnavailable(error);
      }
    }
    for (const [seen, until] of this.seen) if (until < nowMs) this.seen.delete(seen);
    if (this.seen.has(signature)) return false;
    this.seen.set(signature, nowMs + keepSeconds * 1000);
    return true;
  }
}
