/**
 * `portal-cache inspect` looks into each running instance's memory (L1): two real portals share a Redis prefix
 * and announce themselves there; a page read through one only is in that one's L1 and not the other's. An
 * instance named with --portal is asked too; a cleanly stopped instance withdraws its announcement, a crashed one is
 * listed as unreachable until it expires. /_internal/l1 answers only this machine or the shared token.
 */
import Redis from 'ioredis';
import request from 'supertest';
import { ANNOUNCE_EVERY_MS, instanceKey } from '../../server/cache/instances';
import { HOME_CATID } from '../../shared/constants';
import { buildCacheCli, type CacheCli } from '../support/cache-cli';
import { startTestPortal } from '../support/portal';
import { startPortalProcess } from '../support/portal-process';
import { redisPortalSuite } from '../support/redis-portal';
import { describeWithRedis, testRedisUrl } from '../support/requirements';
import { firstHomeArticle } from '../support/upstream-data';
import { eventually } from '../server/cache/redis-helpers';

interface Copy {
  instance: string;
  url: string;
  copy: 'present' | 'absent' | 'unreachable' | 'refused';
  ageSeconds: number | null;
  freshness: string | null;
}

interface Inspected {
  version: number;
  entries: Array<{ key: string; l1: Copy[] }>;
  instances: Array<{
    id: string | null;
    url: string;
    source: string;
    state: string;
    l1: string | null;
    host: string | null;
    build: string | null;
    startedAt: string | null;
  }>;
}

const TOKEN = 'an-internal-token-of-this-suite';
/** How often the instance the test crashes announces itself (its key lives three times as long). */
const CRASHED_EVERY_MS = 3000;

describeWithRedis()('portal-cache inspect: each instance’s L1 copy', () => {
  const suite = redisPortalSuite({ instances: 2, env: { INTERNAL_TOKEN: TOKEN } });
  let cli: CacheCli;
  let pagePath: string;
  beforeAll(async () => {
    cli = await buildCacheCli({ REDIS_URL: testRedisUrl(), CACHE_PREFIX: suite.portal.cachePrefix });
    const raw = await firstHomeArticle(suite.portal.upstream.url, HOME_CATID);
    pagePath = `/detail/${raw.catid}/${raw.id}`;
  });
  afterAll(() => cli?.remove());

  const copyAt = (inspected: Inspected, url: string): Copy | undefined => inspected.entries[0]?.l1.find((copy) => copy.url === url);

  it('shows the page in the L1 of the instance that served it and not in the other’s, then in both', async () => {
    const { portal, peer } = suite;
    await request(portal.url).get(pagePath).expect(200);
    await request(portal.url).get(pagePath).expect(200);
    const inspected = await eventually(
      () => cli.json<Inspected>('inspect', pagePath).catch(() => null),
      (value) => value !== null && copyAt(value, portal.url)?.copy === 'present',
    );
    expect(inspected).not.toBeNull();
    const doc = inspected!;
    expect(doc.version).toBe(1);
    expect(doc.instances.map((instance) => [instance.url, instance.source, instance.state, instance.l1]).sort()).toEqual(
      [
        [portal.url, 'announced', 'answered', 'on'],
        [peer.url, 'announced', 'answered', 'on'],
      ].sort(),
    );
    expect(doc.instances.every((instance) => instance.id !== null && instance.host && instance.build === portal.portal.assets.buildId)).toBe(true);
    expect(copyAt(doc, portal.url)).toMatchObject({ copy: 'present', freshness: 'fresh' });
    expect(copyAt(doc, portal.url)!.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(copyAt(doc, peer.url)).toMatchObject({ copy: 'absent', ageSeconds: null, freshness: null });

    const human = await cli.run('inspect', pagePath);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/in memory \(L1\) of 2 instances:/);
    expect(human.stdout).toMatch(new RegExp(`present\\s+age \\S+\\s+fresh\\s+\\S+ ${portal.url}`));
    expect(human.stdout).toMatch(new RegExp(`absent\\s+\\S+ ${peer.url}`));

    // Read through the other instance, the page is copied from Redis into its L1 too.
    await request(peer.url).get(pagePath).expect(200);
    const both = await cli.json<Inspected>('inspect', pagePath);
    expect([copyAt(both, portal.url)?.copy, copyAt(both, peer.url)?.copy]).toEqual(['present', 'present']);
  });

  it('asks a portal named with --portal too, once however it is found', async () => {
    const { portal } = suite;
    // Without Redis it announces nothing: only --portal finds it. Its memory store is its L1.
    const alone = await startTestPortal({ upstream: portal.upstream });
    try {
      const inspected = await cli.json<Inspected>('inspect', pagePath, '--portal', alone.url, '--portal', portal.url);
      expect(inspected.instances).toHaveLength(3);
      expect(inspected.instances.find((instance) => instance.url === alone.url)).toMatchObject({ source: 'portal', state: 'answered', l1: 'on' });
      expect(copyAt(inspected, alone.url)).toMatchObject({ copy: 'absent' });
      expect(copyAt(inspected, portal.url)).toMatchObject({ copy: 'present' });
    } finally {
      await alone.close();
    }
    const gone = await cli.run('--json', 'inspect', pagePath, '--portal', alone.url);
    expect(gone.code).toBe(5); // a partial answer: one instance's L1 is unknown
    expect(copyAt(JSON.parse(gone.stdout) as Inspected, alone.url)).toMatchObject({ copy: 'unreachable' });
  });

  it('withdraws a cleanly stopped instance at once, and lists a crashed one as unreachable until its announcement expires', async () => {
    const { portal } = suite;
    const stopped = await startTestPortal({ upstream: portal.upstream, cachePrefix: portal.cachePrefix, redisUrl: testRedisUrl() });
    await eventually(
      () => cli.json<Inspected>('inspect', pagePath),
      (value) => value.instances.some((instance) => instance.url === stopped.url && instance.state === 'answered'),
    );
    await stopped.close();
    const afterClose = await cli.json<Inspected>('inspect', pagePath);
    expect(afterClose.instances.map((instance) => instance.url).sort()).toEqual([portal.url, suite.peer.url].sort());

    // A crash (SIGKILL): nothing withdraws it. Its key lives three announcement intervals: 30 s as shipped (the
    // suite's own instances), 9 s for this process, so the test waits for its expiry in seconds.
    const crashed = await startPortalProcess(
      { UPSTREAM_URL: portal.upstream.url, REDIS_URL: testRedisUrl(), CACHE_PREFIX: portal.cachePrefix },
      CRASHED_EVERY_MS,
    );
    let crashedId: string | null = null;
    try {
      const seen = await eventually(
        () => cli.json<Inspected>('inspect', pagePath),
        (value) => value.instances.some((instance) => instance.url === crashed.url && instance.state === 'answered'),
      );
      crashedId = seen.instances.find((instance) => instance.url === crashed.url)?.id ?? null;
      expect(crashedId).not.toBeNull();
    } finally {
      await crashed.kill();
    }
    const redis = new Redis(testRedisUrl());
    try {
      const key = instanceKey(portal.cachePrefix, crashedId!);
      const pttl = await redis.pttl(key);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(3 * CRASHED_EVERY_MS);
      const shippedId = afterClose.instances.find((instance) => instance.url === portal.url)?.id;
      const shipped = await redis.pttl(instanceKey(portal.cachePrefix, shippedId!));
      expect(shipped).toBeGreaterThan(0);
      expect(shipped).toBeLessThanOrEqual(3 * ANNOUNCE_EVERY_MS);

      // Both asked at once, while the crashed instance's key still lives.
      const [dead, human] = await Promise.all([cli.run('--json', 'inspect', pagePath), cli.run('inspect', pagePath)]);
      expect(dead.code).toBe(5);
      const afterCrash = JSON.parse(dead.stdout) as Inspected;
      expect(afterCrash.instances.find((instance) => instance.url === crashed.url)).toMatchObject({ id: crashedId, source: 'announced', state: 'unreachable' });
      expect(copyAt(afterCrash, crashed.url)).toMatchObject({ copy: 'unreachable', instance: crashedId });
      expect(human.stdout).toMatch(new RegExp(`unreachable .*${crashed.url}`));

      expect(
        await eventually(
          () => redis.exists(key),
          (exists) => exists === 0,
          40_000,
        ),
      ).toBe(0);
    } finally {
      redis.disconnect();
    }
    const expired = await cli.json<Inspected>('inspect', pagePath);
    expect(expired.instances.map((instance) => instance.url).sort()).toEqual([portal.url, suite.peer.url].sort());
  });

  it('/_internal/l1 answers only this machine or the shared token, and refuses bad input with 400', async () => {
    const { portal } = suite;
    const relayed = { 'x-forwarded-for': '203.0.113.9' };
    await request(portal.url).get('/_internal/l1?key=x').set(relayed).expect(403);
    await request(portal.url).get('/_internal/l1?key=x').set(relayed).set('x-portal-internal-token', `${TOKEN}x`).expect(403);
    const answer = await request(portal.url).get('/_internal/l1?key=x').set(relayed).set('x-portal-internal-token', TOKEN).expect(200);
    expect(answer.body).toMatchObject({ l1: 'on', entries: [{ key: 'x', present: false }] });
    expect(answer.headers['cache-control']).toBe('no-store');
    await request(portal.url).get('/_internal/l1').expect(400);
    await request(portal.url)
      .get(`/_internal/l1?${Array.from({ length: 101 }, (_, i) => `key=k${i}`).join('&')}`)
      .expect(400);
    await request(portal.url)
      .get(`/_internal/l1?key=${'k'.repeat(3000)}`)
      .expect(400);
  });
});

describe('INTERNAL_TOKEN', () => {
  it('is refused when shorter than 16 characters, without showing it', async () => {
    const { loadConfig } = await import('../../server/platform/config');
    expect(() => loadConfig({ INTERNAL_TOKEN: 'short-secret' })).toThrow(/INTERNAL_TOKEN="\(hidden\)": at least 16 characters/);
  });
});
