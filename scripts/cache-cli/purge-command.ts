/** `purge`: drop entries everywhere (Redis and every instance's memory) by key, URL, tag, site or all. */
import { announce } from '../../server/cache/coherence';
import { Invalidator, PurgeInputError, urlSelector, type PurgeSelector } from '../../server/cache/invalidation';
import { RedisStore } from '../../server/cache/redis-store';
import { buildsOf } from '../../server/cache/stats';
import { audit } from './audit';
import { CliError, EXIT, print, type Globals } from './output';
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

export async function purgeCommand(globals: Globals, options: PurgeOptions): Promise<void> {
  const selector = await selectorOf(options);
  const client = await connect(globals.redis);
  // The store shares the CLI's connection: connected already, and on a cluster the same node map.
  const store = new RedisStore({ client });
  try {
    const invalidator = new Invalidator(store, { prefix: globals.prefix, buildId: options.build }, (keys) =>
      announce(client, globals.prefix, { kind: 'evict', keys: [...keys] }),
    );
    let result;
    try {
      result = await invalidator.purge(selector, { dryRun: options.dryRun === true });
    } catch (error) {
      if (error instanceof PurgeInputError) throw new CliError(`${optionOf(options)}: ${error.message}`, EXIT.usage);
      throw error;
    }
    const document = { selector, dryRun: result.dryRun, count: result.keys.length, deleted: result.deleted, keys: result.keys, build: options.build };
    if (result.keys.length === 0) {
      const builds = options.build === '*' ? [] : await buildsOf(client, globals.prefix);
      const hint =
        options.build !== '*' && !builds.includes(options.build)
          ? `; build "${options.build}" holds no entries (builds of prefix ${globals.prefix}: ${builds.join(', ') || 'none'})`
          : '';
      throw new CliError(`nothing to purge: no entry of prefix ${globals.prefix} matches ${describe(options)}${hint}`, EXIT.notFound, { ...document, builds });
    }
    if (!result.dryRun) await audit(client, globals.prefix, describe(options), result.deleted);
    print(globals, 'purge', document, () =>
      result.dryRun
        ? `would purge ${result.keys.length} entries (dry run: nothing changed)`
        : `purged ${result.deleted} entries (every instance told to drop its copies)`,
    );
  } finally {
    await store.close();
  }
}
