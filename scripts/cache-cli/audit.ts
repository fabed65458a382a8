/** The audit line every portal logs for an operator action, sent on the invalidation channel. */
import { userInfo, hostname } from 'node:os';
import { announce, type OperatorPurge } from '../../server/cache/coherence';
import type { RedisClient } from '../../server/redis/client';

export function operator(): string {
  let user = process.env.USER ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container's numeric uid): the environment's name is what there is.
  }
  return `${user}@${hostname()}`;
}

/** `purge`: a purge's outcome, which one portal counts in its purge metrics. */
export async function audit(client: RedisClient, prefix: string, what: string, entries: number, purge?: OperatorPurge): Promise<void> {
  await announce(client, prefix, { kind: 'audit', action: { who: operator(), what, entries, ...(purge ? { purge } : {}) } });
}
