/** The operator CLI as operators run it (a child process) against a live portal on a real Redis; --json parsed. */
import { execFile } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { PAGE_POLICY } from '../../server/cache/policy';
import { PROJECT_ROOT } from '../../server/render/assets';
import { HOME_CATID } from '../../shared/constants';
import { describeWithRedis, testRedisUrl } from '../support/requirements';
import { startTestPortal, type TestPortal } from '../support/portal';
import { firstHomeArticle } from '../support/upstream-data';
import { deleteKeys, eventually } from '../server/cache/redis-helpers';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const BUILT = path.join(PROJECT_ROOT, 'dist/run/cache-cli.cjs');

function run(file: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describeWithRedis()('npm run cache', () => {
  let t: TestPortal;
  let cli: (...args: string[]) => Promise<Run>;
  let json: <T>(...args: string[]) => Promise<T>;
  beforeAll(async () => {
    t = await startTestPortal({ redisUrl: testRedisUrl() });
    const env = { REDIS_URL: testRedisUrl(), CACHE_PREFIX: t.cachePrefix };
    // Built once through the same runner as `npm run cache`, then run from its output.
    const help = await run(path.join(PROJECT_ROOT, 'scripts/run-ts.mjs'), ['scripts/cache-cli.ts', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('purge');
    cli = (...args) => run(BUILT, args, env);
    json = async <T>(...args: string[]) => {
      const result = await cli('--json', ...args);
      if (result.code !== 0) throw new Error(`cache ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    };
  });
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), t.cachePrefix);
    await t.close();
  });

  it('stats, inspect and purge (dry run, then for real) an article everywhere', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const pagePath = `/detail/${raw.catid}/${raw.id}`;
    await request(t.url).get(pagePath);
    await request(t.url).get(pagePath);

    const stats = await json<{ entries: { entries: number; byKind: Record<string, { entries: number }> }; ratios: { rows: Array<{ kind: string; site: string; hits: number; hitRatio: number }> } }>(
      'stats',
      '--portal',
      t.url,
    );
    expect(stats.entries.byKind.page?.entries).toBe(1);
    expect(stats.entries.byKind.data?.entries).toBeGreaterThan(3);
    const pageRow = stats.ratios.rows.find((row) => row.kind === 'page' && row.site === 'www.qnnews.cn');
    expect(pageRow).toMatchObject({ hits: 1, hitRatio: 0.5 });

    const [inspected] = await json<Array<{ freshness: string; tags: string[]; ttl: number; bytes: number }>>('inspect', `https://www.qnnews.cn${pagePath}?utm_source=x`);
    expect(inspected).toMatchObject({ freshness: 'fresh', ttl: PAGE_POLICY.detail.ttl });
    expect(inspected!.tags).toContain(`article:${raw.id}`);
    expect(inspected!.bytes).toBeGreaterThan(1000);
    expect((await cli('inspect', '/detail/1/1')).code).toBe(4);

    const dry = await json<{ count: number; dryRun: boolean }>('purge', '--tag', `article:${raw.id}`, '--dry-run');
    expect(dry).toMatchObject({ dryRun: true });
    expect(dry.count).toBeGreaterThanOrEqual(2);
    expect((await request(t.url).get(pagePath)).headers['x-cache']).toBe('HIT');
    const purged = await json<{ deleted: number }>('purge', '--tag', `article:${raw.id}`);
    expect(purged.deleted).toBe(dry.count);
    const after = await eventually(() => request(t.url).get(pagePath), (res) => res.headers['x-cache'] === 'MISS', 5000);
    expect(after.headers['x-cache']).toBe('MISS');
  });

  it('refuses bad input with exit code 2 and a message, and says so when Redis is unreachable (3)', async () => {
    const both = await cli('purge', '--tag', 'cat:1', '--site', '2');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('exactly one of');
    const badTag = await cli('purge', '--tag', 'cat 1');
    expect(badTag).toMatchObject({ code: 2 });
    expect(badTag.stderr).toContain('is not a tag');
    const unknown = await cli('purge', '--nope');
    expect(unknown.code).toBe(2);
    const down = await cli('--redis', 'redis://127.0.0.1:1', 'stats');
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
  });

  it('policy get / set / reset, applied by the running portal; bad values change nothing', async () => {
    const set = await json<{ overrides: unknown }>('policy', 'set', '--page', 'home', '--ttl', '9', '--grace', '0');
    expect(set.overrides).toEqual({ page: { home: { ttl: 9, grace: 0 } } });
    await eventually(async () => t.portal.cachePolicy.page('home').ttl, (ttl) => ttl === 9, 8000);
    expect(t.portal.cachePolicy.page('home')).toMatchObject({ ttl: 9, grace: 0 });

    const bad = await cli('policy', 'set', '--page', 'home', '--ttl', '99999999');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('ttl');
    const got = await json<{ policy: { page: { home: { ttl: number } } } }>('policy', 'get');
    expect(got.policy.page.home.ttl).toBe(9);

    await json('policy', 'reset');
    await eventually(async () => t.portal.cachePolicy.page('home').ttl, (ttl) => ttl === PAGE_POLICY.home.ttl, 8000);
    expect(t.portal.cachePolicy.page('home').ttl).toBe(PAGE_POLICY.home.ttl);
  });

  it('warms a sitemap through the portal and watches the hit ratio', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'warm-'));
    const sitemap = path.join(dir, 'sitemap.xml');
    writeFileSync(
      sitemap,
      '<?xml version="1.0"?><urlset><url><loc>https://www.qnnews.cn/</loc></url><url><loc>https://bj.qnnews.cn/</loc></url><url><loc>https://www.qnnews.cn/detail/1/1</loc></url></urlset>',
    );
    const warmed = await cli('--json', 'warm', sitemap, '--portal', t.url, '--concurrency', '2');
    expect(warmed.code).toBe(1); // one URL is a 404: the summary says so and the exit code too
    const summary = JSON.parse(warmed.stdout) as { urls: number; ok: number; failed: number; failures: Array<{ status: number }> };
    expect(summary).toMatchObject({ urls: 3, ok: 2, failed: 1 });
    expect(summary.failures[0]?.status).toBe(404);
    expect((await request(t.url).get('/').set('Host', 'bj.qnnews.cn')).headers['x-cache']).toBe('HIT');

    let watching = true;
    const watched = await Promise.all([
      cli('--json', 'watch', '--portal', t.url, '--interval', '1', '--count', '1').finally(() => (watching = false)),
      // Readers keep coming while the watch runs, whenever its window starts on a loaded machine.
      (async () => {
        while (watching) {
          await request(t.url).get('/');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })(),
    ]).then(([result]) => result);
    expect(watched.code).toBe(0);
    const line = JSON.parse(watched.stdout.trim()) as { hitRatio: number | null; lookups: number };
    expect(line.lookups).toBeGreaterThan(0);
    expect(line.hitRatio).toBeGreaterThan(0);
  });
});
