/**
 * The purge log (docs/cache.md "Redis down"): every purge made through Redis is appended to a stream,
 * `{prefix}:purgelog`, and announced on the coherence bus in one script, so the order of the log is the order of
 * the announcements. An instance that was not listening (Redis away, a partition, a restart of Redis) reads on
 * reconnect what the log holds past the last announcement it heard, and checks its L1 against that instead of
 * dropping it. `{prefix}:purgelog:epoch` names the log: a Redis that came back without its data (no persistence)
 * has a new epoch, and its whole (new) log is what was purged since it came back.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/client';
import { eventsChannel, wirePurge, type PurgeAnnouncement } from './coherence';

/** Purges the log keeps (the newest, about: MAXLEN ~): far more than a long outage makes. */
export const PURGE_LOG_LENGTH = 10_000;

export function purgeLogKey(prefix: string): string {
  return `${prefix}:purgelog`;
}

export function purgeLogEpochKey(prefix: string): string {
  return `${prefix}:purgelog:epoch`;
}

/** XADD and PUBLISH as one: the announcement carries the entry's id, spliced between ARGV[4] and ARGV[5]. */
const APPEND = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'purge', ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4] .. id .. ARGV[5])
return id`;

/** Where the log id goes in the announcement's text: no selector can hold a NUL (paths and tags are checked). */
const LOG_ID_MARK = '\u0000log-id\u0000';

/** Appends a purge to the log and announces it to every instance; resolves its log id. */
export async function appendPurge(client: RedisClient, prefix: string, purge: PurgeAnnouncement, from: string): Promise<string> {
  const message = JSON.stringify({ from, event: { kind: 'purge', purge: { ...purge, logId: LOG_ID_MARK } } });
  const [head, tail] = message.split(JSON.stringify(LOG_ID_MARK));
  if (head === undefined || tail === undefined) throw new Error('purge log: the announcement could not be framed');
  const id = await client.eval(APPEND, 1, purgeLogKey(prefix), PURGE_LOG_LENGTH, JSON.stringify(purge), eventsChannel(prefix), `${head}"`, `"${tail}`);
  return String(id);
}

export interface LoggedPurge {
  logId: string;
  purge: PurgeAnnouncement;
}

/** The log's name now; a Redis without one (new, or restarted empty) is given one. */
export async function purgeLogEpoch(client: RedisClient, prefix: string): Promise<string> {
  const key = purgeLogEpochKey(prefix);
  await client.set(key, randomUUID(), 'NX');
  const epoch = await client.get(key);
  if (epoch === null) throw new Error('purge log: no epoch');
  return epoch;
}

/** The newest entry's id, or '0-0' for an empty log. */
export async function purgeLogTail(client: RedisClient, prefix: string): Promise<string> {
  const [newest] = await client.xrevrange(purgeLogKey(prefix), '+', '-', 'COUNT', 1);
  return newest?.[0] ?? '0-0';
}

/**
 * The entries after `after` ('0-0': all), oldest first, and whether the log still reaches back to `after`
 * (false: entries past it were trimmed away, so some purges cannot be known).
 */
export async function purgeLogSince(client: RedisClient, prefix: string, after: string): Promise<{ entries: LoggedPurge[]; complete: boolean }> {
  const key = purgeLogKey(prefix);
  const [oldest] = await client.xrange(key, '-', '+', 'COUNT', 1);
  const complete = after === '0-0' || oldest === undefined || compareLogIds(oldest[0], after) <= 0;
  const raw = await client.xrange(key, after === '0-0' ? '-' : `(${after}`, '+');
  const entries = raw.flatMap(([logId, fields]): LoggedPurge[] => {
    try {
      const parsed = wirePurge.safeParse(JSON.parse(fields[1] ?? ''));
      return parsed.success ? [{ logId, purge: parsed.data }] : [];
    } catch {
      return [];
    }
  });
  return { entries, complete };
}

/** Stream ids (`<ms>-<seq>`) in order: negative when `left` is older. */
export function compareLogIds(left: string, right: string): number {
  const [leftMs = 0, leftSeq = 0] = left.split('-').map(Number);
  const [rightMs = 0, rightSeq = 0] = right.split('-').map(Number);
  return leftMs - rightMs || leftSeq - rightSeq;
}
