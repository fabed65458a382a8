/** Run-time policy: validated overrides in Redis, picked up by every running instance without a restart. */
import Redis from 'ioredis';
import request from 'supertest';
import {
  effectivePolicy,
  parseOverrides,
  PolicyInputError,
  policyKey,
  readOverrides,
  resetOverrides,
  setOverrides,
} from '../../../server/cache/runtime-policy';
import { decodeEntry } from '../../../server/cache/entry-codec';
import { DATA_POLICY, PAGE_POLICY } from '../../../server/cache/policy';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { pageKeyOf } from '../../support/portal';
import { redisPortalSuite } from '../../support/redis-portal';
import { eventually } from './redis-helpers';

describe('policy overrides', () => {
  it('merge over the defaults in code', () => {
    const policy = effectivePolicy({ data: { list: { ttl: 5 } }, page: { home: { grace: 0 } } });
    expect(policy.data.list).toEqual({ ...DATA_POLICY.list, ttl: 5 });
    expect(policy.data.menu).toEqual(DATA_POLICY.menu);
    expect(policy.page.home).toEqual({ ...PAGE_POLICY.home, grace: 0 });
  });

  it.each([
    [{ data: { list: { ttl: -1 } } }, /ttl must be at least 1/],
    [{ data: { list: { ttl: 0 } } }, /ttl must be at least 1/],
    [{ page: { home: { grace: 1e9 } } }, /grace must be at most 7 days/],
    [{ data: { list: { ttl: 1.5 } } }, /int/i],
    [{ data: { nosuch: { ttl: 5 } } }, /nosuch|key/i],
    [{ page: { home: { ttl: '60' } } }, /number/i],
    [{ page: { home: { ttl: 60, extra: 1 } } }, /extra|key/i],
  ])('refuses %j with a clear message', (input, message) => {
    expect(() => parseOverrides(input)).toThrow(PolicyInputError);
    expect(() => parseOverrides(input)).toThrow(message);
  });
});

describeWithRedis()('policy on Redis across two instances', () => {
  const suite = redisPortalSuite({ instances: 2 });
  let client: Redis;
  beforeAll(() => {
    client = new Redis(testRedisUrl());
  });
  afterAll(() => client.disconnect());

  it('applies a change on every running instance, for the next entries stored', async () => {
    expect(suite.portal.portal.cachePolicy.page('home').ttl).toBe(PAGE_POLICY.home.ttl);
    await setOverrides(client, suite.portal.cachePrefix, { page: { home: { ttl: 7 } }, data: { list: { ttl: 9, grace: 11 } } });
    for (const t of [suite.portal, suite.peer]) {
      await eventually(
        async () => t.portal.cachePolicy.page('home').ttl,
        (ttl) => ttl === 7,
        8000,
      );
      expect(t.portal.cachePolicy.page('home')).toEqual({ ...PAGE_POLICY.home, ttl: 7 });
      expect(t.portal.cachePolicy.data('list')).toEqual({ ...DATA_POLICY.list, ttl: 9, grace: 11 });
    }
    expect((await request(suite.peer.url).get('/home')).headers['x-cache']).toBe('MISS');
    // The exact key (a pattern would also match the key's lock), read once the write has landed: this client
    // is not the connection the portal wrote on.
    const pageKey = pageKeyOf(suite.portal, 0, '/home');
    const raw = await eventually(
      () => client.getBuffer(pageKey),
      (value) => value !== null,
      5000,
    );
    expect(decodeEntry(raw!)?.ttl).toBe(7);
    const listKeys = await client.keys(`${suite.portal.cachePrefix}:${suite.portal.portal.assets.buildId}:data:_:list:*`);
    expect(listKeys.length).toBeGreaterThan(0);
    for (const key of listKeys) expect(JSON.parse((await client.get(key))!)).toMatchObject({ ttl: 9, grace: 11 });

    // A later change to one field keeps the others.
    await setOverrides(client, suite.portal.cachePrefix, { page: { home: { grace: 3 } } });
    expect(await readOverrides(client, suite.portal.cachePrefix)).toEqual({
      page: { home: { ttl: 7, grace: 3 } },
      data: { list: { ttl: 9, grace: 11 } },
    });
  });

  it('changes nothing on bad input, and ignores a corrupt document instead of using it', async () => {
    const before = await client.get(policyKey(suite.portal.cachePrefix));
    await expect(setOverrides(client, suite.portal.cachePrefix, { page: { home: { ttl: -5 } } })).rejects.toThrow(PolicyInputError);
    expect(await client.get(policyKey(suite.portal.cachePrefix))).toBe(before);

    await client.set(policyKey(suite.portal.cachePrefix), '{"page":{"home":{"ttl":-1}}}');
    await suite.portal.portal.cachePolicy.reload();
    expect(suite.portal.portal.cachePolicy.page('home')).toEqual(PAGE_POLICY.home);

    await resetOverrides(client, suite.portal.cachePrefix);
    await eventually(
      async () => suite.peer.portal.cachePolicy.page('home').ttl,
      (ttl) => ttl === PAGE_POLICY.home.ttl,
      8000,
    );
    expect(suite.peer.portal.cachePolicy.snapshot()).toEqual(effectivePolicy({}));
  });
});
