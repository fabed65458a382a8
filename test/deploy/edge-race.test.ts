/**
 * A correction races an edge fetch (issue 39's stale views): a real varnishd running the shipped VCL asks the portal
 * for an article just before the CMS corrects it, and the portal's answer (the old page, a HIT) reaches the edge
 * only after the hook purged the edges. The edge indexes an object when its headers arrive, so that purge passed
 * it by. The portal purges the edges again (server/cache/purges.ts EDGE_FOLLOW_UPS_MS): readers get the correction
 * within the follow-ups, not after the page's TTL (120 s). A proxy of the test's own between the edge and the
 * portal holds every answer for a moment, as a loaded machine does.
 */
import net from 'node:net';
import request from 'supertest';
import { freePort } from '../../scripts/free-port';
import { EDGE_FOLLOW_UPS_MS } from '../../server/cache/purge-edges';
import { MAIN_SITE } from '../../shared/sites';
import { rawRequest } from '../support/http';
import { startTestPortal, type TestPortal } from '../support/portal';
import { callHook } from '../support/publish-hook';
import { describeWithRedis, describeWithVarnish, testRedisUrl } from '../support/requirements';
import { homeListEntry } from '../support/upstream-data';
import { startVarnish, type TestVarnish } from '../support/varnish';
import { deleteKeys, eventually } from '../server/cache/redis-helpers';

const SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';
const TOKEN = 'an-edge-purge-token-of-the-test-0123';
const HELD_MS = 800;

interface HoldingProxy {
  host: string;
  /** Bytes the portal has answered so far (before they are passed on). */
  answered(): number;
  close(): Promise<void>;
}

/** Passes requests on at once and every answer `heldMs` later, in order. */
async function holdingProxy(target: string, heldMs: number): Promise<HoldingProxy> {
  const [host, port] = target.split(':');
  let answered = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      answered += chunk.length;
      setTimeout(() => client.write(chunk), heldMs);
    });
    upstream.on('end', () => setTimeout(() => client.end(), heldMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    answered: () => answered,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describeWithVarnish()('a correction that races an edge fetch', () => {
  describeWithRedis()('a portal behind a real varnishd, its answers held on the way', () => {
    let portal: TestPortal;
    let proxy: HoldingProxy;
    let varnish: TestVarnish;
    beforeAll(async () => {
      const port = await freePort();
      const env = { PURGE_SECRET: SECRET, EDGE_PURGE_URLS: `http://127.0.0.1:${port}`, EDGE_PURGE_TOKEN: TOKEN };
      portal = await startTestPortal({ redisUrl: testRedisUrl(), env });
      proxy = await holdingProxy(new URL(portal.url).host, HELD_MS);
      varnish = await startVarnish({ backends: [proxy.host, proxy.host], purgeToken: TOKEN, port });
    });
    afterAll(async () => {
      await varnish?.stop();
      await proxy?.close();
      await portal?.close();
      if (portal) await deleteKeys(testRedisUrl(), portal.cachePrefix);
    });

    it('gets the correction to the edge within the follow-up purges, not the page’s TTL', async () => {
      const entry = await homeListEntry(portal.upstream.url, 4);
      const path = `/detail/${entry.catid}/${entry.id}`;
      const viaEdge = () => rawRequest(varnish.url, 'GET', path, { host: MAIN_SITE.domain });
      // The portal holds the page (a HIT for the edge's fetch, sent at once).
      await eventually(
        () => request(portal.url).get(path).set('host', MAIN_SITE.domain),
        (res) => res.headers['x-cache'] === 'HIT',
      );
      // The edge asks for it; the portal answers the old page, and the answer is on its way when the CMS corrects.
      const before = proxy.answered();
      const inFlight = viaEdge();
      await eventually(
        async () => proxy.answered(),
        (bytes) => bytes > before,
        10_000,
      );
      const corrected = `更正：${entry.title}`;
      portal.upstream.api.control.overrideArticle(entry.id, { title: corrected });
      const hook = await callHook(portal.url, SECRET, { tags: [`article:${entry.id}`], soft: false });
      expect(hook.status).toBe(200);
      expect((await inFlight).body).not.toContain(corrected);
      // The edge stored that old answer after its purge; the follow-ups take it out.
      const fixed = await eventually(
        () => viaEdge(),
        (res) => res.body.includes(corrected),
        EDGE_FOLLOW_UPS_MS.at(-1)! + 10_000,
      );
      expect([fixed.status, fixed.body.includes(corrected)]).toEqual([200, true]);
    });
  });
});
