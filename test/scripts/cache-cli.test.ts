/**
 * The operator CLI as operators run it (a child process of the prebuilt bundle) against a live portal on a real
 * Redis: every command, the answer to every kind of bad input (exit code and message), --json documents.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import request from 'supertest';
import { recordRefreshError } from '../../server/cache/refresh-errors';
import { tagSetKey } from '../../server/cache/tags';
import { PAGE_POLICY } from '../../server/cache/policy';
import { PROJECT_ROOT } from '../../server/render/assets';
import { HOME_CATID } from '../../shared/constants';
import { buildCacheCli, type CacheCli, type CliRun } from '../support/cache-cli';
import { describeWithRedis, testRedisUrl } from '../support/requirements';
import { startTestPortal, type TestPortal } from '../support/portal';
import { firstHomeArticle } from '../support/upstream-data';
import { deleteKeys, eventually } from '../server/cache/redis-helpers';

interface Inspected {
  version: number;
  command: string;
  found: boolean;
  entries: Array<{
    key: string;
    freshness: string;
    decision: string;
    tags: string[];
    ttl: number;
    bytes: number;
    lock: { held: boolean };
    unindexed: string[];
    data: Array<{ key: string; freshness: string }>;
  }>;
}

function expectRefused(result: CliRun, code: number, message: RegExp): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code, stderr: expect.stringMatching(message) });
  // The operator reads the rule, never the validator's notation or a stack.
  expect(result.stderr).not.toMatch(/✖|→ at|ZodError|\n\s+at /);
}

describe('portal-cache, the prebuilt bundle', () => {
  it('is built by scripts/build.mjs, rebuilt only when stale, and starts fast (timings printed, generous bounds)', async () => {
    const bundle = path.join(PROJECT_ROOT, 'dist/cli/portal-cache.cjs');
    const node = (args: string[]) =>
      new Promise<CliRun & { ms: number }>((resolve) => {
        const started = performance.now();
        execFile(process.execPath, args, { cwd: PROJECT_ROOT }, (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr, ms: Math.round(performance.now() - started) });
        });
      });
    expect((await node(['scripts/build.mjs', '--cli-if-stale'])).code).toBe(0);
    expect(existsSync(bundle)).toBe(true);
    const built = statSync(bundle).mtimeMs;
    expect((await node(['scripts/build.mjs', '--cli-if-stale'])).code).toBe(0);
    expect(statSync(bundle).mtimeMs).toBe(built); // not stale: not rebuilt

    const bare = await node(['-e', '0']);
    const help = await node([bundle, '--help']);
    const version = await node([bundle, '--version']);
    const stats = await node([bundle, '--redis', testRedisUrl(), '--prefix', 'clitiming', 'stats']);
    console.log(`portal-cache timings: node alone ${bare.ms} ms, --help ${help.ms} ms, --version ${version.ms} ms, stats ${stats.ms} ms`);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes:[\s\S]*4 {2}nothing found/);
    expect(help.stdout).toMatch(/Examples:[\s\S]*portal-cache purge --tag article:/);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // Only a runaway (React Router and the loaders loaded for --help) fails this on a loaded machine.
    expect(help.ms).toBeLessThan(bare.ms + 5000);
  });
});

// Every case starts the CLI as a process, which takes seconds on a loaded two-core machine.
jest.setTimeout(300_000);

describeWithRedis()('portal-cache', () => {
  let t: TestPortal;
  let cli: CacheCli;
  beforeAll(async () => {
    t = await startTestPortal({ redisUrl: testRedisUrl() });
    cli = await buildCacheCli({ REDIS_URL: testRedisUrl(), CACHE_PREFIX: t.cachePrefix });
  });
  afterAll(async () => {
    cli?.remove();
    await deleteKeys(testRedisUrl(), t.cachePrefix);
    await t.close();
  });

  it('stats, inspect (serve decision, lock, data entries, tags once) and purge an article everywhere, with an audit line', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const pagePath = `/detail/${raw.catid}/${raw.id}`;
    await request(t.url).get(pagePath);
    await request(t.url).get(pagePath);

    const stats = await cli.json<{
      version: number;
      entries: { entries: number; byKind: Record<string, { entries: number }> };
      ratios: { rows: Array<{ kind: string; site: string; hits: number; hitRatio: number }> };
      windowSeconds: number | null;
    }>('stats', '--portal', t.url);
    expect(stats).toMatchObject({ version: 1, windowSeconds: null });
    expect(stats.entries.byKind.page?.entries).toBe(1);
    expect(stats.entries.byKind.data?.entries).toBeGreaterThan(3);
    expect(stats.ratios.rows.find((row) => row.kind === 'page' && row.site === 'www.qnnews.cn')).toMatchObject({ hits: 1, hitRatio: 0.5 });
    const human = await cli.run('stats');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/policy overrides: none/);
    expect(human.stdout).not.toContain('{"');

    // Any spelling of the page, any unkeyed query: the one stored entry.
    for (const spelling of [`https://www.qnnews.cn${pagePath}?utm_source=x`, pagePath.replace('/detail/', '/detail//'), `${pagePath}/`, `/x/..${pagePath}`]) {
      const inspected = await cli.json<Inspected>('inspect', spelling);
      expect(inspected).toMatchObject({ version: 1, command: 'inspect', found: true });
      const [entry] = inspected.entries;
      expect(entry).toMatchObject({ freshness: 'fresh', ttl: PAGE_POLICY.detail.ttl, lock: { held: false } });
      expect(entry!.decision).toMatch(/^fresh/);
      expect(entry!.tags).toContain(`article:${raw.id}`);
      expect(new Set(entry!.tags).size).toBe(entry!.tags.length);
      expect(entry!.unindexed).toEqual([]);
      expect(entry!.data.some((data) => data.key.includes(`:data:_:show:${raw.catid}:${raw.id}`))).toBe(true);
    }
    // A failed refresh, as the portal records it (server/cache/refresh-errors.ts), is shown with when it happened.
    const pageKey = (await cli.json<Inspected>('inspect', pagePath)).entries[0]!.key;
    const redis = new Redis(testRedisUrl());
    try {
      await recordRefreshError(redis, pageKey, new Error('upstream /show answered HTTP 502'), Date.now() - 90_000);
      // A page its tag's index no longer names is one a purge of that tag cannot find: inspect says which tags.
      await redis.srem(tagSetKey(t.cachePrefix, `article:${raw.id}`), pageKey);
    } finally {
      redis.disconnect();
    }
    expect((await cli.json<Inspected>('inspect', pagePath)).entries[0]!.unindexed).toEqual([`article:${raw.id}`]);
    const text = await cli.run('inspect', pagePath);
    expect(text.stdout).toContain(`not in the index of: article:${raw.id} (a purge of these tags does not find this page)`);
    expect(text.stdout).toMatch(/last refresh failed \d+m(\d+s)? ago \(\d{4}-\d\d-\d\dT[^)]+\): upstream \/show answered HTTP 502/);
    expect(text.stdout).toMatch(/fresh: served from the cache/);
    expect(text.stdout).toMatch(/lock: none/);
    expect(text.stdout).toMatch(/built from \d+ data entries/);
    expect(text.stdout.match(/tags: /g)).toHaveLength(1);
    const restore = new Redis(testRedisUrl());
    try {
      await restore.sadd(tagSetKey(t.cachePrefix, `article:${raw.id}`), pageKey);
    } finally {
      restore.disconnect();
    }

    const miss = await cli.run('--json', 'inspect', '/detail/1/1');
    expect(miss.code).toBe(4);
    expect(JSON.parse(miss.stdout)).toMatchObject({ version: 1, command: 'inspect', found: false, entries: [] });

    const dry = await cli.json<{ count: number; dryRun: boolean }>('purge', '--tag', `article:${raw.id}`, '--dry-run');
    expect(dry).toMatchObject({ dryRun: true });
    expect(dry.count).toBeGreaterThanOrEqual(2);
    expect((await request(t.url).get(pagePath)).headers['x-cache']).toBe('HIT');
    const purged = await cli.json<{ deleted: number }>('purge', '--tag', `article:${raw.id}`);
    expect(purged.deleted).toBe(dry.count);
    const after = await eventually(
      () => request(t.url).get(pagePath),
      (res) => res.headers['x-cache'] === 'MISS',
      5000,
    );
    expect(after.headers['x-cache']).toBe('MISS');
    const auditLine = await eventually(
      async () => t.logs.find((line) => typeof line.msg === 'string' && line.msg.includes(`purge --tag article:${raw.id}`)),
      Boolean,
      5000,
    );
    expect(auditLine).toMatchObject({ audit: { what: `purge --tag article:${raw.id}`, entries: dry.count, who: expect.stringContaining('@') } });
  });

  it('purges by URL exactly one page in every spelling, and by site domain', async () => {
    await request(t.url).get('/');
    await request(t.url).get('/about');
    await request(t.url).get('/').set('Host', 'bj.qnnews.cn');
    const root = await cli.json<{ count: number; keys: string[] }>('purge', '--url', 'https://www.qnnews.cn/', '--every-query', '--dry-run');
    // One page, and the data answers it was rendered from (url-purge.test.ts).
    const pagesOf = (keys: string[]) => keys.filter((key) => key.includes(':page:')).map((key) => key.slice(key.indexOf(':page:')));
    expect(pagesOf(root.keys)).toEqual([':page:0:/']);
    expect(root.keys.filter((key) => key.includes(':data:')).length).toBe(root.count - 1);
    const about = await cli.json<{ count: number; keys: string[] }>('purge', '--url', '/%61bout/', '--dry-run');
    expect(pagesOf(about.keys)).toEqual([':page:0:/about']);
    const help = await cli.run('purge', '--help');
    expect(help.stdout).toMatch(/1 {2}bj\.qnnews\.cn/);
    const site = await cli.json<{ keys: string[] }>('purge', '--site', 'bj.qnnews.cn', '--dry-run');
    expect(site.keys.some((key) => key.includes(':page:1:/'))).toBe(true);
    expect(site.keys.every((key) => !key.includes(':page:0:'))).toBe(true);
  });

  it('refuses bad input with exit 2 naming the option, and says what is wrong with Redis (3) or what matched nothing (4)', async () => {
    await request(t.url).get('/about');
    // Each run is a process start on a loaded machine: run the cases side by side, then check each.
    const cases: Array<[string[], number, RegExp]> = [
      [['inspect', 'ht!tp://bad_url'], 2, /inspect: "ht!tp:\/\/bad_url" is not a page URL/],
      [['inspect', 'https://evil.example.com/detail/2728/33727'], 2, /"evil\.example\.com" is not one of the portal's sites/],
      [['purge', '--url', 'not_a_url'], 2, /--url "not_a_url" is not a page URL/],
      [['purge', '--url', 'https://evil.example.com/'], 2, /--url: "evil\.example\.com" is not one of/],
      [['purge', '--url', '/detail/%zz/1'], 2, /--url .*no valid spelling/],
      [['purge', '--tag', 'cat 1'], 2, /--tag: tag "cat 1" is not a tag/],
      [['purge', '--tag', 'cat:1', '--site', '2'], 2, /exactly one of/],
      [['purge', '--site', 'nosuch.example'], 2, /--site: "nosuch\.example" is not one of the portal's sites/],
      [['purge', '--site', '99'], 2, /--site 99 is not a site id \(0–22/],
      // The hook's one list of families (server/cache/tags.ts): a typo or another case is refused, not a purge of nothing.
      [['purge', '--tag', 'artcle:33727'], 2, /--tag: tag "artcle:33727" is not a tag of the contract: "artcle" is not a family/],
      [['purge', '--tag', 'ARTICLE:33727'], 2, /--tag: tag "ARTICLE:33727": tags are lower case/],
      [['purge', '--tag', 'nosuchtag', '--dry-run'], 2, /--tag: tag "nosuchtag" is not a tag of the contract/],
      [['purge', '--tag', 'article:999999999'], 4, /nothing to purge: no entry of prefix \S+ matches purge --tag article:999999999/],
      [['purge', '--url', 'https://www.qnnews.cn/detail/1/1'], 4, /nothing to purge/],
      [['purge', '--all', '--build', 'nosuchbuild'], 4, new RegExp(`build "nosuchbuild" holds no entries \\(builds of prefix ${t.cachePrefix}: [0-9a-f]+`)],
    ];
    const results = await Promise.all(cases.map(([args]) => cli.run(...args)));
    cases.forEach(([, code, message], index) => expectRefused(results[index]!, code, message));
    const typo = await cli.run('--prefix', `${t.cachePrefix}x`, 'stats');
    expect(typo.code).toBe(0);
    expect(typo.stdout).toContain(`this Redis holds entries of: `);
    expect(typo.stdout).toContain(t.cachePrefix);
    const more: Array<[string[], number, RegExp]> = [
      [['warm', 'nofile.txt', '--portal', t.url], 2, /cannot read the URL list "nofile\.txt": no such file/],
      [['warm', 'nofile.txt', '--portal', 'notaurl'], 2, /--portal "notaurl" is not a URL/],
      [['stats', '--portal', 'ftp://x'], 2, /--portal "ftp:\/\/x" must be an http/],
      [['stats', '--top', '0'], 2, /--top must be a whole number from 1 to 1000/],
      [['--prefix', 'a b', 'stats'], 2, /--prefix "a b"/],
      [['purge', '--nope'], 2, /unknown option '--nope'/],
      [['--redis', `redis://${new URL(t.url).host}`, 'stats'], 3, /is not a Redis server/],
      [['--redis', 'redis://127.0.0.1:1', 'stats'], 3, /cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/],
      [['--redis', 'mysql://x', 'stats'], 2, /--redis "mysql:\/\/x"/],
    ];
    const moreResults = await Promise.all(more.map(([args]) => cli.run(...args)));
    more.forEach(([, code, message], index) => expectRefused(moreResults[index]!, code, message));
    const asJson = await cli.run('--json', 'purge', '--url', 'not_a_url');
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ version: 1, command: 'purge', exitCode: 2, error: expect.stringContaining('--url') });
  });

  it('policy get / set (durations) / unset / reset, applied by the running portal; bad values in option terms', async () => {
    const set = await cli.json<{ overrides: unknown }>('policy', 'set', '--page', 'home', '--ttl', '10m', '--grace', '0');
    expect(set.overrides).toEqual({ page: { home: { ttl: 600, grace: 0 } } });
    await eventually(
      async () => t.portal.cachePolicy.page('home').ttl,
      (ttl) => ttl === 600,
      8000,
    );
    await cli.json('policy', 'set', '--data', 'list', '--ttl', '1h30m');
    const marked = await cli.run('policy', 'get');
    expect(marked.stdout).toMatch(/home\s+10m\*\s+0s\*/);
    expect(marked.stdout).toMatch(/detail\s+\d+[smhd]\s/);
    expect(marked.stdout).not.toMatch(/detail\s+\S+\*/);

    expectRefused(await cli.run('policy', 'set', '--page', 'home', '--ttl', '99999999'), 2, /--ttl must be from 1s to 7d, not/);
    expectRefused(await cli.run('policy', 'set', '--page', 'home', '--ttl', '0'), 2, /--ttl must be from 1s to 7d, not 0s/);
    expectRefused(await cli.run('policy', 'set', '--page', 'home', '--grace', 'soon'), 2, /--grace "soon" is not a duration/);
    expectRefused(await cli.run('policy', 'set', '--page', 'nosuch', '--ttl', '1'), 2, /--page.*nosuch/);
    const got = await cli.json<{ policy: { page: { home: { ttl: number } } } }>('policy', 'get');
    expect(got.policy.page.home.ttl).toBe(600);

    const unset = await cli.json<{ overrides: unknown }>('policy', 'unset', '--page', 'home');
    expect(unset.overrides).toEqual({ data: { list: { ttl: 5400 } } });
    await eventually(
      async () => t.portal.cachePolicy.page('home').ttl,
      (ttl) => ttl === PAGE_POLICY.home.ttl,
      8000,
    );
    expectRefused(await cli.run('policy', 'unset', '--page', 'home'), 4, /page home has no override to remove/);
    const policyAudit = await eventually(
      async () => t.logs.find((line) => typeof line.msg === 'string' && line.msg.includes('policy unset --page home')),
      Boolean,
      5000,
    );
    expect(policyAudit).toBeTruthy();

    // The outage policy (what L1 does through a Redis outage): set, applied by the portal, shown, unset.
    const outage = await cli.json<{ overrides: { outage?: unknown } }>('policy', 'set', '--outage-window', '10m', '--outage-ttl', '45s');
    expect(outage.overrides.outage).toEqual({ window: 600, ttl: 45 });
    await eventually(
      async () => t.portal.cachePolicy.outage(),
      (policy) => policy.window === 600 && policy.ttl === 45,
      8000,
    );
    expect((await cli.run('policy', 'get')).stdout).toMatch(/outage \(Redis down\)\s+window 10m\*\s+ttl 45s\*/);
    expectRefused(await cli.run('policy', 'set', '--outage-ttl', '2h'), 2, /--outage-ttl must be from 1s to 1h, not 2h/);
    expectRefused(await cli.run('policy', 'set', '--outage-ttl', '30s', '--page', 'home'), 2, /--outage-window \/ --outage-ttl go alone/);
    const outageUnset = await cli.json<{ overrides: { outage?: unknown } }>('policy', 'unset', '--outage', '--field', 'ttl');
    expect(outageUnset.overrides.outage).toEqual({ window: 600 });
    await cli.json('policy', 'unset', '--outage');
    expectRefused(await cli.run('policy', 'unset', '--outage'), 4, /the outage policy has no override to remove/);

    await cli.json('policy', 'reset');
    expect(await cli.json<{ overrides: unknown }>('policy', 'get')).toMatchObject({ overrides: {} });
  });

  it('warms a sitemap, a sitemap index (its sub-sitemaps’ pages) and says why a dead portal gave nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'warm-'));
    const sitemap = path.join(dir, 'sitemap.xml');
    writeFileSync(
      sitemap,
      '<?xml version="1.0"?><urlset><url><loc>https://www.qnnews.cn/</loc></url><url><loc>https://bj.qnnews.cn/</loc></url><url><loc>https://www.qnnews.cn/detail/1/1</loc></url></urlset>',
    );
    const warmed = await cli.run('--json', 'warm', sitemap, '--portal', t.url, '--concurrency', '2');
    expect(warmed.code).toBe(1); // one URL is a 404: the summary says so and the exit code too
    const summary = JSON.parse(warmed.stdout) as { version: number; urls: number; ok: number; failed: number; failures: Array<{ status: number }> };
    expect(summary).toMatchObject({ version: 1, urls: 3, ok: 2, failed: 1 });
    expect(summary.failures[0]?.status).toBe(404);
    // Held by the cache: a HIT, or STALE when an earlier test stored it more than home's 30 s TTL ago on a slow machine.
    expect((await request(t.url).get('/').set('Host', 'bj.qnnews.cn')).headers['x-cache']).toMatch(/^(HIT|STALE)$/);

    const index = (await request(t.url).get('/sitemap.xml')).text;
    expect(index).toContain('<sitemapindex');
    const subs = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    const pages = (await Promise.all(subs.map(async (sub) => [...(await request(t.url).get(sub)).text.matchAll(/<loc>/g)].length))).reduce((a, b) => a + b, 0);
    writeFileSync(path.join(dir, 'index.xml'), index);
    const fromIndex = JSON.parse((await cli.run('--json', 'warm', path.join(dir, 'index.xml'), '--portal', t.url, '--concurrency', '4')).stdout) as {
      urls: number;
      ok: number;
    };
    expect(pages).toBeGreaterThan(subs.length);
    expect(fromIndex.urls).toBe(pages);
    expect(fromIndex.ok).toBeGreaterThan(0);

    const dead = await cli.run('warm', sitemap, '--portal', 'http://127.0.0.1:1');
    expect(dead.code).toBe(1);
    expect(dead.stdout).toMatch(/cannot reach the portal http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
    expect(dead.stdout).toMatch(/no answer \(.*ECONNREFUSED.*\) https:\/\/www\.qnnews\.cn\//);
  });

  it('watches the hit ratio', async () => {
    let watching = true;
    const watched = await Promise.all([
      cli.run('--json', 'watch', '--portal', t.url, '--interval', '1', '--count', '1').finally(() => (watching = false)),
      // Readers keep coming while the watch runs, whenever its window starts on a loaded machine.
      (async () => {
        while (watching) {
          await request(t.url).get('/');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })(),
    ]).then(([result]) => result);
    expect(watched.code).toBe(0);
    const line = JSON.parse(watched.stdout.trim()) as { version: number; hitRatio: number | null; lookups: number };
    expect(line.version).toBe(1);
    expect(line.lookups).toBeGreaterThan(0);
    expect(line.hitRatio).toBeGreaterThan(0);
  });
});
