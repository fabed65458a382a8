/**
 * Running instances announce themselves in Redis, so `portal-cache inspect` can ask each one what its L1 holds
 * (docs/operations.md "Cache CLI"). Each instance keeps one key, `{prefix}:instance:{id}`, holding where it can be
 * reached on the internal network and what it runs; the key expires unless refreshed, so an instance that died
 * disappears on its own (listed as unreachable until then); one that shuts down cleanly deletes it. The key has no build or kind
 * segment, so no entry scan (`{prefix}:*:page:*`, stats.ts's parseEntryKey) counts it. The ids are also kept in one
 * sorted set, `{prefix}:instances`, scored by when each announcement expires: the listing reads it instead of
 * scanning the keyspace, which every purge and every instance's refresh would otherwise do, at a cost that grows
 * with the entries held (docs/capacity.md, docs/decisions/0175).
 */
import { timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import type { RedisClient } from '../redis/client';

/** Refreshed this often; the key lives three times as long, so one late refresh never hides a live instance. */
export const ANNOUNCE_EVERY_MS = 10_000;

/** The request header carrying INTERNAL_TOKEN to /_internal endpoints (docs/operations.md). */
export const INTERNAL_TOKEN_HEADER = 'x-portal-internal-token';

const announcement = z.object({
  id: z.string().min(1).max(100),
  /** The machine's (container's) host name. */
  host: z.string().max(255),
  pid: z.number().int(),
  /** Where the CLI reaches it: INTERNAL_URL, or http://{host}:{port} of its listener. */
  url: z.string().url(),
  build: z.string().max(100),
  startedAt: z.string(),
});

export type Announcement = z.infer<typeof announcement>;

export function instanceKey(prefix: string, id: string): string {
  return `${prefix}:instance:${id}`;
}

/** The sorted set of announced ids, each scored by when its announcement expires (epoch ms). */
export function instanceIndexKey(prefix: string): string {
  return `${prefix}:instances`;
}

/**
 * Writes an announcement for `ttlMs`: its key, and its id in the index (ids whose announcement has expired are
 * taken out). Separate commands: on a cluster the key and the index live in different slots.
 */
export async function writeAnnouncement(client: RedisClient, prefix: string, record: Announcement, ttlMs: number): Promise<void> {
  const now = Date.now();
  const index = instanceIndexKey(prefix);
  await Promise.all([
    client.set(instanceKey(prefix, record.id), JSON.stringify(record), 'PX', ttlMs),
    client.zadd(index, now + ttlMs, record.id),
    client.zremrangebyscore(index, '-inf', now),
  ]);
}

/**
 * The address other machines reach this instance at: INTERNAL_URL when set, else the listener's own address,
 * with the machine's host name in place of a wildcard (0.0.0.0 or ::, as in a container).
 */
export function internalUrlOf(listening: string, configured: string | undefined): string {
  if (configured) return new URL(configured).origin;
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = hostname();
  return url.origin;
}

export interface AnnouncerOptions {
  client: RedisClient;
  prefix: string;
  record: Omit<Announcement, 'host' | 'pid' | 'startedAt'>;
  everyMs?: number;
  onError: (error: unknown) => void;
  /** Every instance announced, read after each write: what a purge reaches straight while Redis is away (peer-purge.ts). */
  onInstances?: (instances: Announcement[]) => void;
}

/**
 * Writes this instance's announcement now, every `everyMs` and whenever the Redis connection is (re)established
 * (a portal starts listening before its client has connected, and a restarted Redis has lost the key), until
 * stopped; stopping leaves it to expire.
 */
export class InstanceAnnouncer {
  private timer: NodeJS.Timeout | null = null;
  private readonly onReady = (): void => this.write();
  private readonly record: Announcement;
  private readonly everyMs: number;

  constructor(private readonly options: AnnouncerOptions) {
    this.everyMs = options.everyMs ?? ANNOUNCE_EVERY_MS;
    this.record = { ...options.record, host: hostname(), pid: process.pid, startedAt: new Date().toISOString() };
  }

  start(): void {
    if (this.timer) return;
    this.options.client.on('ready', this.onReady);
    this.write();
    this.timer = setInterval(() => this.write(), this.everyMs);
    this.timer.unref();
  }

  /**
   * Stops refreshing and withdraws the announcement: an instance that shut down cleanly is gone, not 'unreachable',
   * and purges stop waiting for its acknowledgement at once. A crashed one stays listed until its key expires.
   */
  async stop(): Promise<void> {
    this.options.client.off('ready', this.onReady);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.options.client.status !== 'ready') return;
    const { client, prefix, record, onError } = this.options;
    await Promise.all([client.del(instanceKey(prefix, record.id)), client.zrem(instanceIndexKey(prefix), record.id)]).catch(onError);
  }

  private write(): void {
    const { client, prefix, onError } = this.options;
    // Not connected yet: 'ready' writes it as soon as it is, without a warning for the wait.
    if (client.status !== 'ready') return;
    const written = writeAnnouncement(client, prefix, this.record, this.everyMs * 3);
    written.catch(onError);
    const { onInstances } = this.options;
    if (onInstances) written.then(() => announcedInstances(client, prefix)).then(onInstances, () => undefined);
  }
}

/**
 * Every instance announced under the prefix, oldest start first: the ids of the index whose announcement has not
 * expired, each read from its key (a key gone since, deleted or expired, is not listed).
 */
export async function announcedInstances(client: RedisClient, prefix: string): Promise<Announcement[]> {
  const ids = await client.zrangebyscore(instanceIndexKey(prefix), Date.now(), '+inf');
  const values = await Promise.all(ids.map((id) => client.get(instanceKey(prefix, id))));
  return values
    .flatMap((value) => {
      if (value === null) return [];
      try {
        const parsed = announcement.safeParse(JSON.parse(value));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return []; // Not an announcement of this version: nothing to ask.
      }
    })
    .sort((left, right) => left.startedAt.localeCompare(right.startedAt) || left.id.localeCompare(right.id));
}

/** Whether a request carries the shared INTERNAL_TOKEN (compared in constant time). */
export function carriesToken(sent: string | undefined, token: string | undefined): boolean {
  if (!token || sent === undefined) return false;
  const left = Buffer.from(sent);
  const right = Buffer.from(token);
  return left.length === right.length && timingSafeEqual(left, right);
}
