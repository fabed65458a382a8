/**
 * A partition that cuts one instance off Redis and leaves the other on it: the publish hook reaches the cut-off
 * instance, which sends the purge straight to its peer (PEER_URLS). The peer drops its L1 copy and, since it reaches
 * Redis, Redis's copy too, at once: the old page is not left there to come back once the peer's purge clock has
 * forgotten the purge. Redis is the test's own; the cut-off instance reaches it through a TCP relay the test cuts.
 */
import net from 'node:net';
import Redis from 'ioredis';
import request from 'supertest';
import { MAIN_SITE } from '../../../shared/sites';
import { pageKeyOf, startTestPortal, type TestPortal } from '../../support/portal';
import { callHook } from '../../support/publish-hook';
import { OwnRedis } from '../../support/redis-server';
import { describeWithRedisServers } from '../../support/requirements';
import { homeListEntry } from '../../support/upstream-data';
import { eventually } from './redis-helpers';

const SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';

interface Relay {
  url: string;
  /** Closes the relay and every connection through it: the instance behind it is cut off. */
  cut(): Promise<void>;
}

/** A TCP relay to `port` on loopback, as a network path the test can cut. */
async function relayTo(port: number): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describeWithRedisServers()('a purge across a partition that cut one instance off Redis', () => {
  let redis: OwnRedis;
  let relay: Relay;
  let reaching: TestPortal;
  let cutOff: TestPortal;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    relay = await relayTo(redis.port);
    const env = { PURGE_SECRET: SECRET, REDIS_COMMAND_TIMEOUT_MS: '300' };
    reaching = await startTestPortal({ redisUrl: redis.url, env });
    cutOff = await startTestPortal({
      redisUrl: relay.url,
      upstream: reaching.upstream,
      cachePrefix: reaching.cachePrefix,
      env: { ...env, PEER_URLS: new URL(reaching.url).origin },
    });
  });
  afterAll(async () => {
    await cutOff?.close();
    await reaching?.close();
    await redis?.stop();
  });

  it('drops the page from the peer’s L1 and from Redis at once, and the peer serves the correction', async () => {
    const entry = await homeListEntry(reaching.upstream.url, 2);
    const path = `/detail/${entry.catid}/${entry.id}`;
    const page = () => request(reaching.url).get(path).set('host', MAIN_SITE.domain);
    const key = pageKeyOf(reaching, MAIN_SITE.id, path);
    const client = new Redis(redis.url);
    try {
      // Held by the instance that reaches Redis, in its L1 and in Redis.
      await eventually(
        async () => (await page()).headers['x-cache'],
        (cache) => cache === 'HIT',
        10_000,
      );
      expect(await client.exists(key)).toBe(1);

      await relay.cut();
      await eventually(
        async () => ((await request(cutOff.url).get('/readyz')).body as { checks: { redis: string } }).checks.redis,
        (state) => state === 'down',
        20_000,
      );
      const corrected = '隔断时的更正';
      expect(reaching.upstream.api.control.overrideArticle(entry.id, { title: corrected, list_title: corrected })).toBe(true);
      const answer = await callHook(cutOff.url, SECRET, { tags: [`article:${entry.id}`], soft: false });
      expect([answer.status, answer.body.unreached, answer.body.instances.missing]).toEqual([202, ['redis'], []]);
      expect(answer.body.instances.acknowledged.map((ack: { id: string }) => ack.id)).toContain(reaching.portal.instance.id);

      // Gone from Redis before anyone asked for the page again, and the peer renders the correction.
      expect(await client.exists(key)).toBe(0);
      const res = await page();
      expect([res.status, res.headers['x-cache'], res.text.includes(corrected)]).toEqual([200, 'MISS', true]);
    } finally {
      client.disconnect();
    }
  });
});
