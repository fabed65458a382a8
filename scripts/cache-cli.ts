/**
 * The operator CLI: `npm run cache -- <command>`. Talks to the cache's Redis directly (stats, inspect, purge,
 * policy) and to running portals over HTTP (hit ratios from /metrics, warm, watch). Every command has --help;
 * --json prints one JSON document for scripts. Exit codes: 0 done, 1 failed, 2 bad usage or input,
 * 3 Redis unreachable, 4 nothing found (inspect). --redis / REDIS_URL takes the portal's forms: one server,
 * a Sentinel set or a cluster (server/redis/target.ts); on a cluster, scans and purges cover every master.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Command, CommanderError, Option } from 'commander';
import { announce } from '../server/cache/coherence';
import { Invalidator, PurgeInputError, urlSelector, type PurgeSelector } from '../server/cache/invalidation';
import { escapeGlob } from '../server/cache/keys';
import { normaliseQuery, queryKeysOf } from '../shared/page-address';
import { RedisStore } from '../server/cache/redis-store';
import { createRedisClient, type RedisClient } from '../server/redis/client';
import { parseRedisTarget, redactRedisUrl, RedisUrlError, type RedisTarget } from '../server/redis/target';
import {
  DATA_FAMILIES,
  PAGE_KINDS,
  PolicyInputError,
  effectivePolicy,
  readOverrides,
  resetOverrides,
  setOverrides,
} from '../server/cache/runtime-policy';
import { entryStats, hitRatios, inspectKey, parsePrometheus, scanKeys, type Ratios, type Sample } from '../server/cache/stats';
import { resolveSite } from '../shared/sites';

const EXIT = { ok: 0, failed: 1, usage: 2, redis: 3, notFound: 4 } as const;

class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

interface Globals {
  redis: string;
  prefix: string;
  json: boolean;
}

function print(globals: Globals, data: unknown, human: () => string): void {
  process.stdout.write(globals.json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`);
}

/** Connects once, failing fast with a clear message instead of retrying forever. */
async function connect(url: string): Promise<RedisClient> {
  let target: RedisTarget;
  try {
    target = parseRedisTarget(url);
  } catch (error) {
    if (!(error instanceof RedisUrlError)) throw error;
    throw new CliError(`--redis "${redactRedisUrl(url)}": ${error.message}`, EXIT.usage);
  }
  const client = createRedisClient(target, { role: 'cli' });
  let cause = '';
  // The socket error (ECONNREFUSED, ENOTFOUND…) says more than connect()'s 'Connection is closed'.
  client.on('error', (error: Error) => {
    cause ||= error.message;
  });
  try {
    await client.connect();
    return client;
  } catch (error) {
    client.disconnect();
    throw new CliError(`cannot reach Redis at ${redactRedisUrl(url)}: ${cause || (error instanceof Error ? error.message : String(error))}`, EXIT.redis);
  }
}

async function withRedis<T>(globals: Globals, use: (client: RedisClient) => Promise<T>): Promise<T> {
  const client = await connect(globals.redis);
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

async function scrape(portals: string[]): Promise<Sample[]> {
  const all = await Promise.all(
    portals.map(async (portal) => {
      const url = new URL('/metrics', portal).href;
      const response = await fetch(url).catch((error: unknown) => {
        throw new CliError(`cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`, EXIT.failed);
      });
      if (!response.ok) throw new CliError(`${url} answered HTTP ${response.status}`, EXIT.failed);
      return parsePrometheus(await response.text());
    }),
  );
  return all.flat();
}

function ratioTable(ratios: Ratios): string {
  const lines = ['kind  site  hit%    hits   stale  misses  pass'];
  for (const row of ratios.rows) {
    const ratio = row.hitRatio === null ? '   -  ' : `${(row.hitRatio * 100).toFixed(1).padStart(5)}%`;
    lines.push(
      `${row.kind.padEnd(5)} ${row.site.padEnd(5)} ${ratio} ${String(row.hits).padStart(6)} ${String(row.stale).padStart(6)} ${String(row.misses).padStart(7)} ${String(row.pass).padStart(5)}`,
    );
  }
  lines.push(`stale served on upstream error: ${ratios.staleIfError}   upstream errors: ${ratios.upstreamErrors}/${ratios.upstreamCalls} calls`);
  return lines.join('\n');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function positiveInt(name: string, max: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > max) throw new CliError(`${name} must be an integer from 1 to ${max}`, EXIT.usage);
    return parsed;
  };
}

// ---- commands ----

async function statsCommand(globals: Globals, options: { portal: string[]; window?: number; top: number }): Promise<void> {
  const [entries, overrides, ratios] = await Promise.all([
    withRedis(globals, (client) => entryStats(client, globals.prefix, options.top)),
    withRedis(globals, (client) => readOverrides(client, globals.prefix)),
    (async () => {
      if (options.portal.length === 0) return null;
      if (!options.window) return hitRatios(await scrape(options.portal));
      const before = await scrape(options.portal);
      await sleep(options.window * 1000);
      return hitRatios(await scrape(options.portal), before);
    })(),
  ]);
  const policy = effectivePolicy(overrides);
  print(globals, { prefix: globals.prefix, entries, ratios, window: options.window ?? 'since start', policy, overrides }, () =>
    [
      `prefix ${globals.prefix}: ${entries.entries} entries, ${(entries.bytes / 1024).toFixed(1)} KiB`,
      ...Object.entries(entries.byKind).map(([kind, b]) => `  ${kind}: ${b.entries} entries, ${(b.bytes / 1024).toFixed(1)} KiB`),
      'largest keys:',
      ...entries.top.map((top) => `  ${String(top.bytes).padStart(8)}  ${top.key}`),
      ratios ? `hit ratios (${options.window ? `last ${options.window} s` : 'since start'}):\n${ratioTable(ratios)}` : 'hit ratios: pass --portal URL',
      `policy overrides: ${JSON.stringify(overrides)}`,
    ].join('\n'),
  );
}

async function inspectCommand(globals: Globals, target: string): Promise<void> {
  const reports = await withRedis(globals, async (client) => {
    const keys = target.startsWith(`${globals.prefix}:`) ? [target] : await keysForUrl(client, globals.prefix, target);
    const found = await Promise.all(keys.map((key) => inspectKey(client, key)));
    return found.filter((report) => report !== null);
  });
  if (reports.length === 0) throw new CliError(`nothing cached for ${target}`, EXIT.notFound);
  print(globals, reports, () =>
    reports
      .map(
        (r) =>
          `${r.key}\n  ${r.freshness}, age ${r.ageSeconds} s (ttl ${r.ttl}, grace ${r.grace}, stale-if-error ${r.staleIfError}), ${r.bytes} bytes, kept ${Math.round(r.expiresInMs / 1000)} s more\n  tags: ${r.tags.join(' ')}`,
      )
      .join('\n'),
  );
}

/** Page keys of a URL in every build of the prefix (newest deploy and any older one still held). */
async function keysForUrl(client: RedisClient, prefix: string, target: string): Promise<string[]> {
  let url: URL;
  try {
    url = new URL(target, 'http://portal.invalid');
  } catch {
    throw new CliError(`"${target}" is neither a key of prefix ${prefix} nor a URL`, EXIT.usage);
  }
  const site = resolveSite(url.host === 'portal.invalid' ? undefined : url.host);
  const rest = `${url.pathname}${normaliseQuery(url.searchParams, queryKeysOf(url.pathname))}`;
  return scanKeys(client, `${escapeGlob(prefix)}:*:page:${site.id}:${escapeGlob(rest)}`);
}

interface PurgeOptions {
  key?: string;
  url?: string;
  tag?: string;
  site?: string;
  all?: boolean;
  everyQuery?: boolean;
  build: string;
  dryRun?: boolean;
}

function selectorOf(options: PurgeOptions): PurgeSelector {
  const given = [options.key, options.url, options.tag, options.site, options.all].filter((value) => value !== undefined);
  if (given.length !== 1) throw new CliError('name exactly one of --key, --url, --tag, --site, --all', EXIT.usage);
  if (options.key !== undefined) return { by: 'key', key: options.key };
  if (options.url !== undefined) return urlSelector(options.url, (host) => resolveSite(host).id, options.everyQuery === true);
  if (options.tag !== undefined) return { by: 'tag', tag: options.tag };
  if (options.site !== undefined) {
    if (!/^\d{1,3}$/.test(options.site)) throw new CliError(`--site must be a site id (0 is the main site), not "${options.site}"`, EXIT.usage);
    return { by: 'site', siteId: Number(options.site) };
  }
  return { by: 'all' };
}

async function purgeCommand(globals: Globals, options: PurgeOptions): Promise<void> {
  const selector = selectorOf(options);
  const client = await connect(globals.redis);
  // The store shares the CLI's connection: connected already, and on a cluster the same node map.
  const store = new RedisStore({ client });
  try {
    const invalidator = new Invalidator(store, { prefix: globals.prefix, buildId: options.build }, (keys) =>
      announce(client, globals.prefix, { kind: 'evict', keys: [...keys] }),
    );
    const result = await invalidator.purge(selector, { dryRun: options.dryRun === true });
    print(globals, { ...result, count: result.keys.length }, () =>
      result.dryRun ? `would purge ${result.keys.length} entries` : `purged ${result.deleted} entries (every instance told to drop its copies)`,
    );
  } finally {
    await store.close();
  }
}

/** URLs from a sitemap (`<loc>` elements) or a plain list, one per line; '-' reads stdin. */
function readUrlList(source: string): string[] {
  const text = readFileSync(source === '-' ? 0 : source, 'utf8');
  const locs = [...text.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((match) => match[1]!);
  const urls = locs.length > 0 ? locs : text.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  for (const url of urls) if (!/^(https?:\/\/[^/\s]+)?\/\S*$/.test(url)) throw new CliError(`not a URL or path: ${url}`, EXIT.usage);
  return urls;
}

async function warmCommand(globals: Globals, source: string, options: { portal: string; concurrency: number }): Promise<void> {
  const urls = readUrlList(source);
  const results: Array<{ url: string; status: number; cache: string; ms: number }> = [];
  let next = 0;
  const started = performance.now();
  const progress = (): void => {
    if (globals.json || !process.stderr.isTTY) return;
    const width = 30;
    const filled = Math.round((results.length / Math.max(1, urls.length)) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${results.length}/${urls.length}`);
  };
  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const url = urls[next++]!;
      results.push(await warmOne(options.portal, url));
      progress();
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, urls.length) }, worker));
  if (!globals.json && process.stderr.isTTY) process.stderr.write('\n');
  const count = (filter: (r: (typeof results)[number]) => boolean) => results.filter(filter).length;
  const summary = {
    urls: urls.length,
    ok: count((r) => r.status === 200),
    failed: count((r) => r.status !== 200),
    byCache: Object.fromEntries(['MISS', 'HIT', 'STALE', 'PASS', '-'].map((state) => [state, count((r) => r.cache === state)])),
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    failures: results.filter((r) => r.status !== 200),
  };
  print(globals, summary, () =>
    `warmed ${summary.urls} URLs in ${summary.seconds} s: ${summary.ok} ok, ${summary.failed} failed; ${JSON.stringify(summary.byCache)}${summary.failures
      .map((f) => `\n  ${f.status} ${f.url}`)
      .join('')}`,
  );
  if (summary.failed > 0) process.exitCode = EXIT.failed;
}

/**
 * GETs one URL from the portal, with the URL's host as Host so the right site's page is stored. node:http,
 * because fetch() may not set Host.
 */
function warmOne(portal: string, url: string): Promise<{ url: string; status: number; cache: string; ms: number }> {
  const target = new URL(url, 'http://portal.invalid');
  const base = new URL(portal);
  const started = performance.now();
  const get = base.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve) => {
    const done = (status: number, cache: string) => resolve({ url, status, cache, ms: Math.round(performance.now() - started) });
    const req = get(
      new URL(`${target.pathname}${target.search}`, base),
      { headers: target.host === 'portal.invalid' ? {} : { host: target.host }, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0, String(res.headers['x-cache'] ?? '-')));
        res.on('error', () => done(0, '-'));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => done(0, '-'));
  });
}

async function policyGet(globals: Globals): Promise<void> {
  const overrides = await withRedis(globals, (client) => readOverrides(client, globals.prefix));
  const policy = effectivePolicy(overrides);
  print(globals, { policy, overrides }, () =>
    [
      'data (call family)  ttl  grace  stale-if-error',
      ...Object.entries(policy.data).map(([n, p]) => `  ${n.padEnd(16)} ${String(p.ttl).padStart(5)} ${String(p.grace).padStart(6)} ${String(p.staleIfError).padStart(8)}`),
      'page (kind)',
      ...Object.entries(policy.page).map(([n, p]) => `  ${n.padEnd(16)} ${String(p.ttl).padStart(5)} ${String(p.grace).padStart(6)} ${String(p.staleIfError).padStart(8)}`),
      `overrides: ${JSON.stringify(overrides)}`,
    ].join('\n'),
  );
}

interface PolicySetOptions {
  data?: string;
  page?: string;
  ttl?: string;
  grace?: string;
  staleIfError?: string;
}

function policyChange(options: PolicySetOptions): unknown {
  if ((options.data === undefined) === (options.page === undefined)) throw new CliError('name exactly one of --data <family> or --page <kind>', EXIT.usage);
  const fields: Record<string, number> = {};
  for (const [name, raw] of [['ttl', options.ttl], ['grace', options.grace], ['staleIfError', options.staleIfError]] as const) {
    if (raw === undefined) continue;
    if (!/^-?\d+$/.test(raw)) throw new CliError(`--${name === 'staleIfError' ? 'stale-if-error' : name} must be whole seconds, not "${raw}"`, EXIT.usage);
    fields[name] = Number(raw);
  }
  if (Object.keys(fields).length === 0) throw new CliError('give at least one of --ttl, --grace, --stale-if-error', EXIT.usage);
  return options.data !== undefined ? { data: { [options.data]: fields } } : { page: { [options.page!]: fields } };
}

async function policySet(globals: Globals, options: PolicySetOptions): Promise<void> {
  const change = policyChange(options);
  const overrides = await withRedis(globals, (client) => setOverrides(client, globals.prefix, change));
  print(globals, { overrides, policy: effectivePolicy(overrides) }, () => `policy updated; every instance applies it within seconds\noverrides: ${JSON.stringify(overrides)}`);
}

async function watchCommand(globals: Globals, options: { portal: string[]; interval: number; count?: number }): Promise<void> {
  let before = await scrape(options.portal);
  for (let round = 1; options.count === undefined || round <= options.count; round += 1) {
    await sleep(options.interval * 1000);
    const after = await scrape(options.portal);
    const ratios = hitRatios(after, before);
    before = after;
    const totals = ratios.rows.reduce(
      (sum, row) => ({ hits: sum.hits + row.hits + row.stale, looked: sum.looked + row.hits + row.stale + row.misses }),
      { hits: 0, looked: 0 },
    );
    const ratio = totals.looked === 0 ? null : totals.hits / totals.looked;
    const line = { at: new Date().toISOString(), hitRatio: ratio, lookups: totals.looked, upstreamErrors: ratios.upstreamErrors, rows: ratios.rows };
    process.stdout.write(
      globals.json
        ? `${JSON.stringify(line)}\n`
        : `${line.at}  hit ${ratio === null ? '-' : `${(ratio * 100).toFixed(1)}%`}  lookups ${totals.looked}  upstream errors ${ratios.upstreamErrors}\n`,
    );
  }
}

// ---- wiring ----

function program(): Command {
  const cli = new Command('cache')
    .description('Operate the portal cache: stats, inspect, purge, warm, policy, watch')
    .addOption(new Option('--redis <url>', 'Redis of the cache').env('REDIS_URL').default('redis://127.0.0.1:6379'))
    .addOption(new Option('--prefix <prefix>', 'cache prefix (CACHE_PREFIX of the portals)').env('CACHE_PREFIX').default('portal'))
    .option('--json', 'print one JSON document (for scripts)', false)
    .showHelpAfterError()
    .exitOverride();
  const globals = (): Globals => cli.opts<Globals>();
  const portals = (value: string, previous: string[]) => [...previous, value];

  cli
    .command('stats')
    .description('entries, bytes and largest keys in Redis; hit ratios by kind and site from running portals')
    .option('--portal <url>', 'a running portal to read /metrics from (repeat for several)', portals, [])
    .option('--window <seconds>', 'hit ratios over this window instead of since start', positiveInt('--window', 3600))
    .option('--top <n>', 'how many of the largest keys to list', positiveInt('--top', 1000), 10)
    .action((options) => statsCommand(globals(), options));
  cli
    .command('inspect')
    .description('freshness, age, ttl, grace, tags and size of a key, or of a URL’s page in every build')
    .argument('<url-or-key>', 'a page URL (https://host/path or /path) or an exact cache key')
    .action((target: string) => inspectCommand(globals(), target));
  cli
    .command('purge')
    .description('drop entries everywhere (Redis and every instance’s memory) by key, URL, tag, site or all')
    .option('--key <key>', 'one exact cache key')
    .option('--url <url>', 'a page URL; the host picks the site')
    .option('--every-query', 'with --url: every query variant of the path', false)
    .option('--tag <tag>', 'every entry holding the tag (article:123, cat:2728, site:3, page:detail, data:list)')
    .option('--site <id>', 'every page of a site and the data tagged with it')
    .option('--all', 'every page and data entry')
    .option('--build <id>', 'only this build (default: every build of the prefix)', '*')
    .option('--dry-run', 'count what would be purged, change nothing', false)
    .action((options: PurgeOptions) => purgeCommand(globals(), options));
  cli
    .command('warm')
    .description('request every URL of a sitemap or URL list through a portal, so readers find them cached')
    .argument('<file>', 'sitemap.xml or a text file of URLs/paths, one per line ("-" for stdin)')
    .requiredOption('--portal <url>', 'the portal to request them from')
    .option('--concurrency <n>', 'requests in flight at once', positiveInt('--concurrency', 256), 8)
    .action((source: string, options) => warmCommand(globals(), source, options));
  const policy = cli.command('policy').description('TTL, grace and stale-if-error per call family and page kind');
  policy.command('get').description('the policy in force (defaults plus overrides)').action(() => policyGet(globals()));
  policy
    .command('set')
    .description('override one call family or page kind; every instance applies it without restart')
    .addOption(new Option('--data <family>', 'a call family').choices(DATA_FAMILIES))
    .addOption(new Option('--page <kind>', 'a page kind').choices(PAGE_KINDS))
    .option('--ttl <seconds>', 'fresh for (1–604800)')
    .option('--grace <seconds>', 'then served stale while refreshing (0–604800)')
    .option('--stale-if-error <seconds>', 'then kept for upstream outages (0–2592000)')
    .action((options: PolicySetOptions) => policySet(globals(), options));
  policy
    .command('reset')
    .description('drop every override: back to the defaults in code')
    .action(() => withRedis(globals(), (client) => resetOverrides(client, globals().prefix)).then(() => print(globals(), { reset: true }, () => 'policy reset to defaults')));
  cli
    .command('watch')
    .description('live hit ratio of running portals, one line per interval')
    .requiredOption('--portal <url>', 'a running portal (repeat for several)', portals, [])
    .option('--interval <seconds>', 'seconds between lines', positiveInt('--interval', 3600), 2)
    .option('--count <n>', 'stop after this many lines', positiveInt('--count', 1_000_000))
    .action((options) => watchCommand(globals(), options));
  return cli;
}

async function main(argv: string[]): Promise<number> {
  try {
    const cli = program();
    cli.hook('preAction', () => {
      const { prefix } = cli.opts<Globals>();
      if (!/^[a-z0-9_-]{1,32}$/i.test(prefix)) throw new CliError(`--prefix "${prefix}": letters, digits, _ and - only (1–32)`, EXIT.usage);
    });
    await cli.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const code = error instanceof CliError ? error.code : error instanceof PurgeInputError || error instanceof PolicyInputError ? EXIT.usage : EXIT.failed;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`cache: ${message}\n`);
    return code;
  }
}

// exitCode rather than exit(): a large --json document piped to another program is written out in full.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
