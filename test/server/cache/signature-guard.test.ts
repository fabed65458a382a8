/**
 * A hook signature once used is refused on every instance for its whole window, whatever Redis does meanwhile:
 * used while Redis is down (the purge then goes straight to the other instance, which keeps the signature too),
 * asked again once Redis is back, and after Redis came back empty (a restart without persistence). Two portals
 * on a Redis of the test's own; the same signed call is sent again and again to each.
 */
import { randomBytes } from 'node:crypto';
import type { TestPortal } from '../../support/portal';
import { startTestPortal } from '../../support/portal';
import { callHook, signatureOf } from '../../support/publish-hook';
import { OwnRedis } from '../../support/redis-server';
import { describeWithRedisServers } from '../../support/requirements';
import { untilEvery } from '../../support/readiness';

const SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';

describeWithRedisServers()('a used hook signature through Redis events', () => {
  let redis: OwnRedis;
  let a: TestPortal;
  let b: TestPortal;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    const env = { PURGE_SECRET: SECRET, REDIS_COMMAND_TIMEOUT_MS: '300' };
    a = await startTestPortal({ redisUrl: redis.url, env, announceEveryMs: 300 });
    b = await startTestPortal({ redisUrl: redis.url, env, announceEveryMs: 300, upstream: a.upstream, cachePrefix: a.cachePrefix });
    // Each has seen the other announced: the peer a purge is sent to while Redis is away.
    const purge = await callHook(a.url, SECRET, { tags: ['site:1'], soft: true });
    expect(purge.status).toBe(200);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  /** The same call (body and signature) to both portals: each answer's status. */
  async function sendAgain(body: string, signature: string): Promise<number[]> {
    return [(await callHook(a.url, SECRET, body, signature)).status, (await callHook(b.url, SECRET, body, signature)).status];
  }

  it('takes a peer purge only as a purge announcement: anything else is a 400 and drops nothing', async () => {
    for (const body of ['not json', '{"id":"x"}', JSON.stringify({ id: 'x', selectors: [{ by: 'nothing' }] })]) {
      const res = await fetch(`${b.url}/_internal/peer-purge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, expect.stringMatching(/^body: /)]);
    }
    const res = await fetch(`${b.url}/_internal/peer-purge`, {
      method: 'POST',
      body: JSON.stringify({ id: `p-${randomBytes(4).toString('hex')}`, selectors: [{ by: 'tag', tag: 'site:1' }], build: '*' }),
    });
    expect([res.status, await res.json()]).toEqual([200, { id: b.portal.instance.id, entries: expect.any(Number) }]);
  });

  it('refuses it on both instances during the outage, after Redis returns, and after Redis came back empty', async () => {
    await redis.stop('SIGKILL');
    await untilEvery([a, b], (checks) => checks.redis === 'down', 'cut off from Redis');
    const body = JSON.stringify({ tags: ['site:1'], soft: true, event: `guard-${randomBytes(4).toString('hex')}` });
    const signature = signatureOf(SECRET, body);

    const first = await callHook(a.url, SECRET, body, signature);
    expect([first.status, first.body.unreached, first.body.instances.missing]).toEqual([202, ['redis'], []]);
    // During the outage: refused by the instance that took it and by the one it reached straight.
    expect(await sendAgain(body, signature)).toEqual([409, 409]);

    await redis.startProcess();
    await untilEvery([a, b], (checks) => checks.redis === 'up' && checks.l1 === 'coherent', 'coherent again');
    // Redis is back (the held purge replayed, its signature written there): still refused everywhere.
    expect(await sendAgain(body, signature)).toEqual([409, 409]);

    // Redis restarted empty: its record of signatures is gone, each instance's own is not.
    await redis.stop('SIGKILL');
    await untilEvery([a, b], (checks) => checks.redis === 'down', 'cut off from Redis');
    await redis.startProcess();
    await untilEvery([a, b], (checks) => checks.redis === 'up' && checks.l1 === 'coherent', 'coherent again');
    expect(await sendAgain(body, signature)).toEqual([409, 409]);

    // A signature used once Redis is back, on one instance, is refused on the other at once (Redis, then the bus).
    const fresh = JSON.stringify({ tags: ['site:1'], soft: true, event: `guard-${randomBytes(4).toString('hex')}` });
    const freshSignature = signatureOf(SECRET, fresh);
    expect((await callHook(b.url, SECRET, fresh, freshSignature)).status).toBe(200);
    expect(await sendAgain(fresh, freshSignature)).toEqual([409, 409]);
  });
});
