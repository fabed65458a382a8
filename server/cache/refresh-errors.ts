/**
 * The last failed refresh of each entry (a background refresh in grace, or a reload past grace that fell back to
 * stale-if-error), kept in Redis beside it for a day, so `portal-cache inspect` can say why a page is stale and
 * since when. The side key's name is the entry's key base64url-encoded: no glob over entry keys
 * (`{prefix}:*:page:*`) can match it, so purges and stats never count it as an entry.
 */
import type { RedisClient } from '../redis/client';
import { prefixOfKey } from './tags';

export interface RefreshError {
  /** Epoch milliseconds. */
  at: number;
  error: string;
}

const KEEP_SECONDS = 86_400;
const MAX_MESSAGE = 500;

export function refreshErrorKey(key: string): string {
  return `${prefixOfKey(key)}:refresh-error:${Buffer.from(key).toString('base64url')}`;
}

export async function recordRefreshError(client: RedisClient, key: string, error: unknown, now = Date.now()): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_MESSAGE);
  const record: RefreshError = { at: now, error: message };
  await client.set(refreshErrorKey(key), JSON.stringify(record), 'EX', KEEP_SECONDS);
}

export async function readRefreshError(client: RedisClient, key: string): Promise<RefreshError | null> {
  const raw = await client.get(refreshErrorKey(key));
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<RefreshError>;
    return typeof parsed.at === 'number' && typeof parsed.error === 'string' ? { at: parsed.at, error: parsed.error } : null;
  } catch {
    return null;
  }
}
