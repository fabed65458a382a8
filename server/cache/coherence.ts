/**
 * Keeps the in-process tier of every instance coherent through Redis pub/sub: whoever purges or refreshes a key
 * announces it on `{prefix}:events`, and every other instance drops its copy (within the publish round trip,
 * well under a second). Policy changes are announced the same way. An instance that loses its subscription
 * may have missed announcements, so it stops trusting its copies until it is subscribed again (and then
 * drops them all). On a Redis Cluster PUBLISH reaches every node, so the subscription is held on any one node;
 * when that node goes away for good the bus subscribes on another, and counts the gap as missed.
 */
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { z } from 'zod';
import { openSubscriber, type RedisClient } from '../redis/client';
import type { PurgeSelector } from './invalidation';

/** What the bus carries to every instance: the selectors themselves, resolved by each against its own L1. */
export interface PurgeAnnouncement {
  id: string;
  selectors: PurgeSelector[];
  /** Only this build's entries ('*': every build). */
  build: string;
  /** Pages marked stale rather than dropped (how the edges are purged again on a catch-up). */
  soft?: boolean;
  /** Its place in the purge log (purge-log.ts), once appended there. */
  logId?: string;
  /** The hook call's signature and until when (epoch ms) it is kept: every instance that applies the purge refuses it again. */
  signature?: UsedSignature;
}

export interface UsedSignature {
  value: string;
  until: number;
}

/** Who changed the cache and how: every portal writes it to its log, so an operator action is on record. */
export interface OperatorAction {
  /** `user@host` of the CLI. */
  who: string;
  /** `purge --tag article:1`, `policy set page detail ttl=600`… */
  what: string;
  entries: number;
  /** A purge's outcome (`portal-cache purge`): counted once in the portals' purge metrics (purges.ts countOnce). */
  purge?: OperatorPurge;
}

/** What a purge run outside the portals (the CLI) tells them of its outcome, for the purge counters. */
export interface OperatorPurge {
  id: string;
  ms: number;
  instances: { missing: string[] };
  edges: { edge: string; ok: boolean }[];
}

/** `purge`: every instance resolves the selectors against its own L1 and acknowledges (purges.ts). */
export type CacheEvent =
  { kind: 'evict'; keys: string[] } | { kind: 'policy' } | { kind: 'audit'; action: OperatorAction } | { kind: 'purge'; purge: PurgeAnnouncement };

export const wireSelector = z.discriminatedUnion('by', [
  z.object({ by: z.literal('key'), key: z.string().max(4096) }),
  z.object({ by: z.literal('url'), siteId: z.number().int(), pathname: z.string().max(4096), search: z.string().max(4096).nullable() }),
  z.object({ by: z.literal('tag'), tag: z.string().max(100) }),
  z.object({ by: z.literal('site'), siteId: z.number().int() }),
  z.object({ by: z.literal('all') }),
]);

/** A purge as the bus and the purge log (purge-log.ts) carry it; `logId`: its place in the log. */
export const wirePurge = z.object({
  id: z.string().max(100),
  selectors: z.array(wireSelector).max(10_000),
  build: z.string().max(100).default('*'),
  soft: z.boolean().optional(),
  logId: z.string().max(40).optional(),
  signature: z.object({ value: z.string().max(200), until: z.number().int().nonnegative() }).optional(),
});

const wireEvent = z.object({
  from: z.string(),
  event: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('evict'), keys: z.array(z.string()).max(100_000) }),
    z.object({ kind: z.literal('policy') }),
    z.object({
      kind: z.literal('audit'),
      action: z.object({
        who: z.string().max(200),
        what: z.string().max(2000),
        entries: z.number().int().nonnegative(),
        purge: z
          .object({
            id: z.string().max(100),
            ms: z.number().nonnegative(),
            instances: z.object({ missing: z.array(z.string().max(100)).max(10_000) }),
            edges: z.array(z.object({ edge: z.string().max(300), ok: z.boolean() })).max(100),
          })
          .optional(),
      }),
    }),
    z.object({ kind: z.literal('purge'), purge: wirePurge }),
  ]),
});

export function eventsChannel(prefix: string): string {
  return `${prefix}:events`;
}

/** Announcing needs only a command connection; the CLI uses this without subscribing. */
export async function announce(client: RedisClient, prefix: string, event: CacheEvent, from = 'cli'): Promise<void> {
  await client.publish(eventsChannel(prefix), JSON.stringify({ from, event }));
}

export interface CacheBusOptions {
  /** A command connection (for PUBLISH). The bus opens its own subscriber connection from it. */
  client: RedisClient;
  prefix: string;
  onEvent: (event: CacheEvent) => void;
  /**
   * Called when the subscription is (re)established: whatever was announced meanwhile was missed. Until what it
   * returns has settled the bus still counts as not hearing (unsubscribedSince), so L1 stays bypassed.
   */
  onResubscribed: () => Promise<void> | void;
  /** Every purge announcement heard, this instance's own too: its place in the purge log (purge-log.ts). */
  onLogged?: (logId: string) => void;
  /** The subscription was lost (announcements may be missed until onResubscribed). */
  onLost?: () => void;
  onError?: (error: Error) => void;
}

/** Pause before subscribing on another cluster node, so a cluster that is down is not spun on. */
const REOPEN_DELAY_MS = 200;

export class CacheBus {
  readonly instanceId = randomUUID();
  private subscriber: Redis | null = null;
  private subscribed = false;
  /** When announcements stopped reaching this instance (start counts: nothing was received before it). */
  private lostAt: number | null = Date.now();
  private closed = false;
  /** Counts subscriptions, so a catch-up that outlived its subscription does not mark a later one as hearing. */
  private generation = 0;

  constructor(private readonly options: CacheBusOptions) {
    this.open();
  }

  private open(): void {
    if (this.closed) return;
    // Subscriber connections queue commands until connected and re-subscribe on their own after a reconnect.
    const subscriber = openSubscriber(this.options.client);
    if (!subscriber) {
      // A cluster client that has not learnt its nodes yet: subscribe once it has.
      this.options.client.once('ready', () => this.open());
      return;
    }
    this.subscriber = subscriber;
    subscriber.on('error', (error: Error) => this.options.onError?.(error));
    subscriber.on('close', () => this.markLost());
    subscriber.on('message', (_channel: string, message: string) => this.receive(message));
    subscriber.on('ready', () => this.subscribe(subscriber));
    // Only a cluster node's subscriber ends on its own (its node is gone): take another node.
    subscriber.once('end', () => {
      this.markLost();
      if (!this.closed) setTimeout(() => this.open(), REOPEN_DELAY_MS).unref();
    });
  }

  /**
   * SUBSCRIBE on a connection that is ready. One that fails while the connection stays up (its command timed out:
   * a loaded or just restarted Redis) is sent again: no 'ready' comes to send it, and until it is answered L1
   * stays bypassed.
   */
  private subscribe(subscriber: Redis): void {
    subscriber
      .subscribe(eventsChannel(this.options.prefix))
      .then(async () => {
        this.subscribed = true;
        const generation = ++this.generation;
        // L1 is trusted again only once the portal has checked it against what it missed (the purge log).
        await this.options.onResubscribed();
        if (this.subscribed && generation === this.generation) this.lostAt = null;
      })
      .catch((error: Error) => {
        this.options.onError?.(error);
        if (this.closed || this.subscriber !== subscriber || subscriber.status !== 'ready' || this.subscribed) return;
        setTimeout(() => {
          if (!this.closed && this.subscriber === subscriber && subscriber.status === 'ready' && !this.subscribed) this.subscribe(subscriber);
        }, REOPEN_DELAY_MS).unref();
      });
  }

  /** True while announcements reach this instance. */
  isSubscribed(): boolean {
    return this.subscribed;
  }

  /** Date.now() when the subscription was lost (or the bus started unsubscribed); null while subscribed. */
  unsubscribedSince(): number | null {
    return this.lostAt;
  }

  private markLost(): void {
    this.options.onLost?.();
    this.subscribed = false;
    this.generation += 1;
    this.lostAt ??= Date.now();
  }

  async publish(event: CacheEvent): Promise<void> {
    try {
      await announce(this.options.client, this.options.prefix, event, this.instanceId);
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  close(): void {
    this.closed = true;
    this.subscriber?.disconnect();
  }

  private receive(message: string): void {
    let parsed: z.infer<typeof wireEvent>;
    try {
      parsed = wireEvent.parse(JSON.parse(message));
    } catch {
      return; // Not ours or malformed: nothing to do, and nothing to crash on.
    }
    if (parsed.event.kind === 'purge' && parsed.event.purge.logId) this.options.onLogged?.(parsed.event.purge.logId);
    if (parsed.from === this.instanceId) return;
    this.options.onEvent(parsed.event);
  }
}
