/**
 * The chunked GET on a real Redis: the same bytes as a plain GET for values around the piece size and far above
 * it, null for a missing key, a failure for a key of another type, and still working when Redis has forgotten
 * the script (a restart, a failover: its own redis-server, so the shared one's script cache is left alone).
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { getInPieces, PIECE_BYTES } from '../../../server/redis/chunked-get';
import { describeWithRedis, describeWithRedisServers } from '../../support/requirements';
import { OwnRedis } from '../../support/redis-server';
import { suiteRedis } from '../cache/redis-helpers';

describeWithRedis()('getInPieces', () => {
  const suite = suiteRedis();
  const { prefix } = suite;

  it.each([1, PIECE_BYTES - 1, PIECE_BYTES, PIECE_BYTES + 1, 5 * PIECE_BYTES + 7, 300 * 1024])('reads a %i-byte value as GET does', async (size) => {
    const key = `${prefix}:value:${size}`;
    const value = randomBytes(size);
    await suite.client.set(key, value);
    const read = await getInPieces(suite.client, key);
    expect(read).not.toBeNull();
    expect(read!.equals(value)).toBe(true);
    expect(read!.equals((await suite.client.getBuffer(key))!)).toBe(true);
  });

  it('reads a value of many concurrent readers without mixing them up', async () => {
    const values = Array.from({ length: 40 }, (_, index) => randomBytes(20_000 + index * 3_001));
    await Promise.all(values.map((value, index) => suite.client.set(`${prefix}:many:${index}`, value)));
    const read = await Promise.all(values.map((_, index) => getInPieces(suite.client, `${prefix}:many:${index}`)));
    expect(read.map((bytes, index) => bytes?.equals(values[index]!))).toEqual(values.map(() => true));
  });

  it('answers null for a missing key and fails for a key that is not a string', async () => {
    expect(await getInPieces(suite.client, `${prefix}:absent`)).toBeNull();
    await suite.client.rpush(`${prefix}:list`, 'a');
    await expect(getInPieces(suite.client, `${prefix}:list`)).rejects.toThrow(/WRONGTYPE|wrong kind/i);
  });
});

describeWithRedisServers()('getInPieces on a Redis that forgot the script', () => {
  let redis: OwnRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await OwnRedis.start();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });

  it('loads it again (EVAL after NOSCRIPT) and reads on', async () => {
    const value = randomBytes(3 * PIECE_BYTES + 5);
    await client.set('page', value);
    expect((await getInPieces(client, 'page'))!.equals(value)).toBe(true);
    await client.script('FLUSH');
    expect(await client.script('EXISTS', '0'.repeat(40))).toEqual([0]);
    expect((await getInPieces(client, 'page'))!.equals(value)).toBe(true);
  });
});
