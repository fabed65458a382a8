/**
 * The bus's subscription survives a SUBSCRIBE that times out on a connection that stays up (a loaded or just
 * restarted Redis answers late): it is sent again, and L1 is trusted once it is answered. Before, nothing sent it
 * again (only a reconnect's 'ready' did), and the instance bypassed L1 until its next reconnect (purge-outage
 * failed in CI on it). A proxy of the test's own in front of a real Redis holds the first SUBSCRIBE's answer past
 * the command timeout.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { CacheBus } from '../../../server/cache/coherence';
import { createRedisClient } from '../../../server/redis/client';
import { parseRedisTarget } from '../../../server/platform/redis-target';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { eventually } from './redis-helpers';

const COMMAND_TIMEOUT_MS = 200;

interface HoldingProxy {
  url: string;
  held(): number;
  close(): Promise<void>;
}

/** Passes bytes both ways; Redis's first answer to a SUBSCRIBE (and what follows it) is held `holdMs`. */
async function holdFirstSubscribe(redisUrl: string, holdMs: number): Promise<HoldingProxy> {
  const target = new URL(redisUrl);
  const sockets = new Set<net.Socket>();
  let held = 0;
  const server = net.createServer((client) => {
    const redis = net.connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(redis);
    let queue: Promise<void> = Promise.resolve();
    client.on('data', (chunk) => redis.write(chunk));
    redis.on('data', (chunk: Buffer) => {
      const wait = held === 0 && chunk.includes('subscribe') ? holdMs : 0;
      if (wait > 0) held += 1;
      queue = queue.then(() => (wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : undefined)).then(() => void client.write(chunk));
    });
    for (const [from, to] of [
      [client, redis],
      [redis, client],
    ] as const) {
      from.on('close', () => to.destroy());
      from.on('error', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describeWithRedis()('the cache bus', () => {
  it('sends SUBSCRIBE again when it timed out on a connection still up, and hears announcements once answered', async () => {
    const proxy = await holdFirstSubscribe(testRedisUrl(), COMMAND_TIMEOUT_MS * 4);
    const client = createRedisClient(parseRedisTarget(proxy.url), { role: 'portal', commandTimeoutMs: COMMAND_TIMEOUT_MS });
    const errors: string[] = [];
    let resubscribed = 0;
    const bus = new CacheBus({
      client,
      prefix: `bus-subscribe-${process.pid}`,
      onEvent: () => undefined,
      onResubscribed: () => {
        resubscribed += 1;
      },
      onError: (error) => errors.push(error.message),
    });
    try {
      const subscribed = await eventually(async () => bus.unsubscribedSince() === null, Boolean, 15_000);
      expect(proxy.held()).toBe(1);
      expect(errors).toContain('Command timed out');
      expect(subscribed).toBe(true);
      expect(bus.isSubscribed()).toBe(true);
      expect(resubscribed).toBeGreaterThanOrEqual(1);
    } finally {
      bus.close();
      client.disconnect();
      await proxy.close();
    }
  });
});
