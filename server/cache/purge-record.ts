/**
 * One purge as the history keeps it, and the history: the newest HISTORY_LENGTH records in a Redis list (what
 * `portal-cache purges` reads), or in process without Redis and for the purges held through an outage.
 */
import { z } from 'zod';
import type { RedisClient } from '../redis/client';

/** One purge as the history keeps it (and `portal-cache purges` reads it back). */
export const purgeRecord = z.object({
  id: z.string(),
  /** ISO time the purge started. */
  at: z.string(),
  /** `cms (10.0.0.7)` for the hook, `user@host` for the CLI, `portal <instance>` for the flag watch. */
  who: z.string(),
  /** `watch`: a flag the CMS switched without the hook, found by an instance (server/upstream/flag-watch.ts). */
  source: z.enum(['hook', 'cli', 'watch']),
  /** What was asked, as its author wrote it: the hook's tags and URLs, or the CLI's command line. */
  what: z.string(),
  tags: z.array(z.string()),
  urls: z.array(z.string()),
  soft: z.boolean(),
  /** Entries deleted or marked stale in the shared store. */
  entries: z.number(),
  instances: z.object({ acknowledged: z.array(z.object({ id: z.string(), entries: z.number() })), missing: z.array(z.string()) }),
  /** Each edge's answer (edge-purge.ts's EdgeAck). */
  edges: z.array(z.object({ edge: z.string(), ok: z.boolean(), purged: z.number().optional(), reason: z.string().optional(), ms: z.number() })),
  /**
   * What could not be reached when it was made (Redis down): `redis` and the other `instances`. The purge was
   * held and is replayed to them, in order, once Redis answers (its record then written with `replayedAt`).
   */
  unreached: z.array(z.enum(['redis', 'instances'])).optional(),
  /** ISO time a held purge was replayed to Redis and every instance. */
  replayedAt: z.string().optional(),
  ms: z.number(),
});

export type PurgeRecord = z.infer<typeof purgeRecord>;

/** How many purges the history keeps (the newest). */
export const HISTORY_LENGTH = 1000;

export function historyKey(prefix: string): string {
  return `${prefix}:purges`;
}

/** The purge history of one prefix. */
export class PurgeHistory {
  private readonly localHistory: PurgeRecord[] = [];

  constructor(
    private readonly client: RedisClient | null,
    private readonly prefix: string,
  ) {}

  /** The newest purges first (with Redis unreachable, the ones this instance holds). */
  async history(limit: number): Promise<PurgeRecord[]> {
    const { client, prefix } = this;
    if (!client) return this.localHistory.slice(0, limit);
    const values = await client.lrange(historyKey(prefix), 0, limit - 1);
    return values.flatMap((value) => {
      try {
        const parsed = purgeRecord.safeParse(JSON.parse(value));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }

  async remember(record: PurgeRecord): Promise<void> {
    const { client, prefix } = this;
    if (!client) {
      this.rememberLocally(record);
      return;
    }
    await client.lpush(historyKey(prefix), JSON.stringify(record));
    await client.ltrim(historyKey(prefix), 0, HISTORY_LENGTH - 1);
  }

  rememberLocally(record: PurgeRecord): void {
    this.localHistory.unshift(record);
    this.localHistory.length = Math.min(this.localHistory.length, HISTORY_LENGTH);
  }
}
