/**
 * `portal-cache watch` when its Redis goes away during the watch (a restart, a network drop): the portals are still
 * there, so the watch goes on asking the instances it last found, each line says why the list may be out of date,
 * and the exit code is 5 (partial). It ended with exit 1 and ioredis's bare "Connection is closed.".
 */
import { spawn } from 'node:child_process';
import request from 'supertest';
import { buildCacheCli, type CacheCli } from '../support/cache-cli';
import { startTestPortal, type TestPortal } from '../support/portal';
import { OwnRedis } from '../support/redis-server';
import { describeWithRedisServers } from '../support/requirements';

jest.setTimeout(120_000);

interface WatchLine {
  instances: number;
  failed: unknown[];
  redis?: string;
}

describeWithRedisServers()('portal-cache watch loses its Redis', () => {
  let redis: OwnRedis;
  let t: TestPortal;
  let cli: CacheCli;
  beforeAll(async () => {
    redis = await OwnRedis.start();
    t = await startTestPortal({ redisUrl: redis.url, announceEveryMs: 500 });
    cli = await buildCacheCli({ REDIS_URL: redis.url, CACHE_PREFIX: t.cachePrefix });
  });
  afterAll(async () => {
    cli?.remove();
    await t?.close();
    await redis?.stop();
  });

  it('goes on with the instances last found, says so in each line, and ends with exit 5', async () => {
    await request(t.url).get('/about').expect(200);
    const child = spawn(process.execPath, [cli.file, '--json', '--timeout', '3', 'watch', '--interval', '1', '--count', '4'], {
      env: { ...process.env, REDIS_URL: redis.url, CACHE_PREFIX: t.cachePrefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stopping: Promise<void> | null = null;
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      // The first line was written with Redis there: it goes now, before the next round asks it.
      if (stopping === null && stdout.includes('\n')) stopping = redis.stop('SIGKILL');
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    await stopping;
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as WatchLine);
    expect(code).toBe(5);
    expect(lines).toHaveLength(4);
    expect(lines[0]!.redis).toBeUndefined();
    // From the first round that found Redis gone (the next, unless the kill is slower than the interval), every line.
    const first = lines.findIndex((line) => line.redis !== undefined);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(2);
    for (const line of lines.slice(first)) {
      expect(line.redis).toMatch(/asking the instances last found/);
      expect(line.instances).toBe(1);
      expect(line.failed).toEqual([]);
    }
  });
});
