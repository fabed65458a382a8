/**
 * Keeps the in-process tier of every instance coherent through Redis pub/sub: whoever purges or refreshes a key
 * announces it on `{prefix}:events`, and every other instance drops its copy (within the publish round trip,
 * well under a second). Policy changes are announced the same way. An instance that loses its subscription
 * may have missed announcements, so it stops trusting its copies until it is subscribed again (and then
 * drops them all).
 */
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { z } from 'zod';

export type CacheEvent = { kind: 'evict'; keys: string[] } | { kind: 'policy' };

const wireEvent = z.object({
  from: z.string(),
  event: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('evict'), keys: z.array(z.string()).max(100_000) }),
    z.object({ kind: z.literal('policy') }),
  ]),
});

export function eventsChannel(prefix: string): string {
  return `${prefix}:events`;
}

/** Announcing needs only a command connection; the CLI uses this without subscribing. */
export async function announce(client: Redis, prefix: string, event: CacheEvent, from = 'cli'): Promise<void> {
  await client.publish(eventsChannel(prefix), JSON.stringify({ from, event }));
}

export interface CacheBusOptions {
  /** A command connection (for PUBLISH). The bus opens its own subscriber connection from it. */
  client: Redis;
  prefix: string;
  onEvent: (event: CacheEvent) => void;
  /** Called when the subscription is (re)established: whatever was announced meanwhile was missed. */
  onResubscribed: () => void;
  onError?: (error: Error) => void;
}

export class CacheBus {
  readonly instanceId = randomUUID();
  private readonly subscriber: Redis;
  private subscribed = false;

  constructor(private readonly options: CacheBusOptions) {
    // Subscriber connections queue commands until connected and re-subscribe on their own after a reconnect.
    this.subscriber = options.client.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.subscriber.on('error', (error: Error) => options.onError?.(error));
    this.subscriber.on('close', () => {
      this.subscribed = false;
    });
    this.subscriber.on('message', (_channel: string, message: string) => this.receive(message));
    this.subscriber.on('ready', () => {
      this.subscriber
        .subscribe(eventsChannel(options.prefix))
        .then(() => {
          this.subscribed = true;
          options.onResubscribed();
        })
        .catch((error: Error) => options.onError?.(error));
    });
  }

  /** True while announcements reach this instance. */
  isSubscribed(): boolean {
    return this.subscribed;
  }

  async publish(event: CacheEvent): Promise<void> {
    try {
      await announce(this.options.client, this.options.prefix, event, this.instanceId);
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  close(): void {
    this.subscriber.disconnect();
  }

  private receive(message: string): void {
    let parsed: z.infer<typeof wireEvent>;
    try {
      parsed = wireEvent.parse(JSON.parse(message));
    } catch {
      return; // Not ours or malformed: nothing to do, and nothing to crash on.
    }
    if (parsed.from === this.instanceId) return;
    this.options.onEvent(parsed.event);
  }
}
