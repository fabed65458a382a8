/**
 * `purge`: drop entries everywhere (Redis, every instance's memory by selector, the edges) by key, URL, tag, site or
 * all, the way the publish hook does (server/cache/purges.ts), and `purges`: the purge history.
 */
import { EdgePurger } from '../../server/cache/edge-purge';
import { Invalidator, PurgeInputError, urlSelector, type PurgeSelector } from '../../server/cache/invalidation';
import type { PurgeRecord } from '../../server/cache/purge-record';
import { Purges } from '../../server/cache/purges';
import type { RedisClient } from '../../server/redis/client';
import { RedisStore } from '../../server/cache/redis-store';
import { buildsOf } from '../../server/cache/stats';
import { audit, operator } from './audit';
import { CliError, EXIT, print, table, type Globals } from './output';
import { connect } from './redis';
import { siteOfHost, siteOfOption } from './sites';

export interface PurgeOptions {
  key?: string;
  url?: string;
  tag?: string;
  site?: string;
  all?: boolean;
  everyQuery?: boolean;
  build: string;
  dryRun?: boolean;
  /** Pages marked stale (served while one re-render runs) instead of deleted. */
  soft?: boolean;
}

async function selectorOf(options: PurgeOptions): Promise<PurgeSelector> {
  const given = [options.key, options.url, options.tag, options.site, options.all].filter((value) => value !== undefined);
  if (given.length !== 1) throw new CliError('name exactly one of --key, --url, --tag, --site, --all', EXIT.usage);
  if (options.everyQuery && options.url === undefined) throw new CliError('--every-query goes with --url', EXIT.usage);
  if (options.key !== undefined) return { by: 'key', key: options.key };
  if (options.url !== undefined) {
    try {
      return await urlSelector(options.url, (host) => (host === undefined ? 0 : siteOfHost(host, '--url').id), options.everyQuery === true);
    } catch (error) {
      if (error instanceof PurgeInputError) throw new CliError(`--url ${error.message}`, EXIT.usage);
      throw error;
    }
  }
  if (options.tag !== undefined) return { by: 'tag', tag: options.tag };
  if (options.site !== undefined) return { by: 'site', siteId: siteOfOption(options.site).id };
  return { by: 'all' };
}

function optionOf(options: PurgeOptions): string {
  if (options.key !== undefined) return '--key';
  if (options.url !== undefined) return '--url';
  if (options.tag !== undefined) return '--tag';
  return options.site !== undefined ? '--site' : '--all';
}

function describe(options: PurgeOptions): string {
  const what =
    options.key !== undefined
      ? `--key ${options.key}`
      : options.url !== undefined
        ? `--url ${options.url}${options.everyQuery ? ' --every-query' : ''}`
        : options.tag !== undefined
          ? `--tag ${options.tag}`
          : options.site !== undefined
            ? `--site ${options.site}`
            : '--all';
  return `purge ${what}${options.build === '*' ? '' : ` --build ${options.build}`}`;
}

/** The edges of EDGE_PURGE_URLS and EDGE_PURGE_TOKEN in the CLI's environment, as the portals have them; none without. */
function edgesOfEnvironment(): EdgePurger | null {
  const urls = (process.env.EDGE_PURGE_URLS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  const token = process.env.EDGE_PURGE_TOKEN;
  if (urls.length === 0 || !token) return null;
  try {
    return new EdgePurger({ edges: urls.map((url) => new URL(url).origin), token, timeoutMs: 2000 });
  } catch {
    throw new CliError(`EDGE_PURGE_URLS="${process.env.EDGE_PURGE_URLS}": comma-separated origins like http://varnish:6081`, EXIT.usage);
  }
}

/** What the edges get for a selector: its tag or URL (every other selector reaches them by the pages found). */
function edgeOrderOf(options: PurgeOptions): { tags: string[]; urls: string[] } {
  if (options.tag !== undefined) return { tags: [options.tag], urls: [] };
  if (options.url !== undefined && /^https?:\/\//i.test(options.url)) return { tags: [], urls: [options.url] };
  return { tags: [], urls: [] };
}

async function dryRun(globals: Globals, store: RedisStore, selector: PurgeSelector, options: PurgeOptions): Promise<{ keys: string[] }> {
  const invalidator = new Invalidator(store, { prefix: globals.prefix, buildId: options.build });
  return invalidator.purge(selector, { dryRun: true });
}

export async function purgeCommand(globals: Globals, options: PurgeOptions): Promise<void> {
  const selector = await selectorOf(options);
  const client = await connect(globals.redis, globals.timeout);
  // The store shares the CLI's connection: connected already, and on a cluster the same node map.
  const store = new RedisStore({ client });
  try {
    let found;
    try {
      found = await dryRun(globals, store, selector, options);
    } catch (error) {
      if (error instanceof PurgeInputError) throw new CliError(`${optionOf(options)}: ${error.message}`, EXIT.usage);
      throw error;
    }
    if (options.dryRun === true) {
      const document = { selector, dryRun: true, soft: options.soft === true, count: found.keys.length, deleted: 0, keys: found.keys, build: options.build };
      if (found.keys.length === 0) await nothingFound(globals, client, options, document);
      print(globals, 'purge', document, () => `would purge ${found.keys.length} entries (dry run: nothing changed)`);
      return;
    }
    const purges = new Purges({
      store,
      prefix: globals.prefix,
      client,
      self: null,
      edges: edgesOfEnvironment(),
      buildId: options.build,
      ackTimeoutMs: Math.min(globals.timeout * 1000, 10_000),
    });
    const record = await purges.run([selector], {
      ...edgeOrderOf(options),
      soft: options.soft === true,
      who: operator(),
      source: 'cli',
      what: describe(options),
    });
    await audit(client, globals.prefix, describe(options), record.entries, {
      id: record.id,
      ms: record.ms,
      instances: { missing: record.instances.missing },
      edges: record.edges.map(({ edge, ok }) => ({ edge, ok })),
    });
    const fromL1 = record.instances.acknowledged.reduce((sum, ack) => sum + ack.entries, 0);
    const document = {
      selector,
      dryRun: false,
      soft: record.soft,
      count: found.keys.length,
      deleted: record.entries,
      keys: found.keys,
      build: options.build,
      id: record.id,
      instances: record.instances,
      edges: record.edges,
    };
    if (record.entries === 0 && fromL1 === 0) await nothingFound(globals, client, options, document);
    const missing = record.instances.missing.length > 0 || record.edges.some((edge) => !edge.ok);
    const human = () => purgeLines(record, fromL1);
    if (missing) throw new CliError(human(), EXIT.partial, document);
    print(globals, 'purge', document, human);
  } finally {
    await store.close();
  }
}

async function nothingFound(globals: Globals, client: RedisClient, options: PurgeOptions, document: Record<string, unknown>): Promise<never> {
  const builds = options.build === '*' ? [] : await buildsOf(client, globals.prefix);
  const hint =
    options.build !== '*' && !builds.includes(options.build)
      ? `; build "${options.build}" holds no entries (builds of prefix ${globals.prefix}: ${builds.join(', ') || 'none'})`
      : '';
  throw new CliError(`nothing to purge: no entry of prefix ${globals.prefix} matches ${describe(options)}${hint}`, EXIT.notFound, { ...document, builds });
}

function purgeLines(record: PurgeRecord, fromL1: number): string {
  const lines = [
    `${record.soft ? 'marked stale' : 'purged'} ${record.entries} entries in Redis; ${fromL1} in-memory copies dropped by ${record.instances.acknowledged.length} instances`,
  ];
  if (record.instances.missing.length > 0)
    lines.push(`not acknowledged by instances: ${record.instances.missing.join(', ')} (they read Redis on their next miss)`);
  for (const edge of record.edges)
    lines.push(edge.ok ? `edge ${edge.edge}: ${edge.purged ?? 0} objects` : `edge ${edge.edge}: MISSING (${edge.reason ?? 'no answer'})`);
  lines.push(`recorded as purge ${record.id} (portal-cache purges)`);
  return lines.join('\n');
}

export async function purgesCommand(globals: Globals, options: { limit: number }): Promise<void> {
  const client = await connect(globals.redis, globals.timeout);
  const store = new RedisStore({ client });
  try {
    const purges = new Purges({ store, prefix: globals.prefix, client, self: null });
    const records = await purges.history(options.limit);
    print(globals, 'purges', { purges: records }, () => historyTable(records));
  } finally {
    await store.close();
  }
}

function historyTable(records: readonly PurgeRecord[]): string {
  if (records.length === 0) return 'no purges recorded';
  const rows = records.map((record) => [
    record.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    record.who,
    record.soft ? 'soft' : 'hard',
    record.what,
    String(record.entries),
    `${record.instances.acknowledged.length}${record.instances.missing.length > 0 ? ` (${record.instances.missing.length} missing)` : ''}`,
    record.edges.length === 0 ? '-' : `${record.edges.filter((edge) => edge.ok).length}/${record.edges.length}`,
  ]);
  return table([['when', 'who', 'mode', 'what', 'entries', 'instances', 'edges'], ...rows], [4]);
}
