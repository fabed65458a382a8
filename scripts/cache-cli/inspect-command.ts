/**
 * `inspect <url-or-key>`: "why is this page stale?" in one command. For each build's entry of the page: the
 * serve decision its age makes (fresh, grace, stale-if-error, gone), its windows, tags and size, any lock held
 * on it (a refresh under way), the last failed refresh and when, and the data entries its tags name, each with
 * its own freshness and last failed refresh. Then each running instance's in-memory (L1) copy of the page: the
 * instances announced in Redis and any named with --portal (instances.ts).
 */
import type { Freshness } from '../../server/cache/entry';
import { PurgeInputError, urlSelector } from '../../server/cache/invalidation';
import { announcedInstances } from '../../server/cache/instances';
import { cacheKey, escapeGlob } from '../../server/cache/keys';
import { lockKey } from '../../server/cache/redis-lock';
import { readRefreshError, type RefreshError } from '../../server/cache/refresh-errors';
import { inspectKey, scanKeys, type EntryReport } from '../../server/cache/stats';
import { tagSetKey } from '../../server/cache/tags';
import type { RedisClient } from '../../server/redis/client';
import { surveyL1, type AskedInstance, type L1Copy } from './instances';
import { CliError, EXIT, formatDuration, kib, print, type Globals } from './output';
import { withRedis } from './redis';
import { siteOfHost } from './sites';

const DECISION: Record<Freshness, string> = {
  fresh: 'fresh: served from the cache (HIT)',
  stale: 'in grace: served stale (STALE) while a background refresh loads it',
  expired: 'past grace: reloaded on the next request; served only if that reload fails (stale-if-error)',
  gone: 'past every window: the next request is a miss',
};

/** Tags every page holds (its kind, its site) name no data call of its own. */
const GENERIC_TAG = /^(page|site|data):/;
const MAX_DATA_ENTRIES = 50;

interface Explained extends EntryReport {
  decision: string;
  /** The last refresh of this entry that failed (kept a day), or null. */
  lastRefreshError: (RefreshError & { isoTime: string }) | null;
}

/** One build's entry of the page in inspect's document (`entries`). */
export interface PageReport extends Explained {
  lock: { held: boolean; expiresInMs: number | null };
  /** Tags whose index does not name this page: a purge of one of them would not find it (tags.ts). */
  unindexed: string[];
  data: Explained[];
  /** Each instance's in-memory copy of this key, in the order of the document's `instances`. */
  l1: L1Copy[];
}

export interface InspectOptions {
  /** Portals to ask besides the announced instances. */
  portal: string[];
}

/** Copies of a page instances still hold in memory though Redis has none (evicted, or deleted behind their backs). */
export interface MemoryOnly {
  key: string;
  l1: L1Copy[];
}

export async function inspectCommand(globals: Globals, target: string, options: InspectOptions): Promise<void> {
  const { reports, instances, memoryOnly } = await withRedis(globals, async (client) => {
    const keys = target.startsWith(`${globals.prefix}:`) ? [target] : await keysForUrl(client, globals.prefix, target);
    const found = (await Promise.all(keys.map((key) => pageReport(client, globals.prefix, key)))).filter((report) => report !== null);
    if (found.length === 0) return { reports: [], ...(await inMemoryOnly(client, globals, target, options)) };
    const survey = await surveyL1(
      client,
      globals.prefix,
      found.map((report) => report.key),
      options.portal,
      globals.timeout,
    );
    return {
      reports: found.map((report): PageReport => ({ ...report, l1: survey.copies.get(report.key) ?? [] })),
      instances: survey.instances,
      memoryOnly: [] as MemoryOnly[],
    };
  });
  if (memoryOnly.length > 0) {
    print(globals, 'inspect', { target, found: true, redis: false, entries: [], memoryOnly, instances }, () =>
      [
        ...memoryOnly.map((held) =>
          [
            held.key,
            '  not in Redis (evicted, or deleted without a purge); still in memory (L1) of:',
            ...held.l1.filter((copy) => copy.copy === 'present').map((copy, index) => humanCopy(copy, instances[index])),
            `  purge it everywhere: portal-cache purge --url ${target}`,
          ].join('\n'),
        ),
        humanInstances(instances),
      ].join('\n\n'),
    );
    if (instances.some((instance) => instance.state !== 'answered')) process.exitCode = EXIT.partial;
    return;
  }
  if (reports.length === 0)
    throw new CliError(`nothing cached for ${target} under prefix ${globals.prefix}`, EXIT.notFound, { target, found: false, entries: [] });
  print(globals, 'inspect', { target, found: true, entries: reports, instances }, () =>
    [...reports.map((report) => humanReport(report, instances)), humanInstances(instances)].join('\n\n'),
  );
  // The L1 columns of an instance that did not answer are unknown: a partial answer (each such instance named above).
  if (instances.some((instance) => instance.state !== 'answered')) process.exitCode = EXIT.partial;
}

/**
 * With nothing in Redis: the instances' in-memory copies of the page, under the key of each build they run (a page
 * URL) or the key given; only keys some instance holds.
 */
async function inMemoryOnly(
  client: RedisClient,
  globals: Globals,
  target: string,
  options: InspectOptions,
): Promise<{ instances: AskedInstance[]; memoryOnly: MemoryOnly[] }> {
  const builds = [...new Set((await announcedInstances(client, globals.prefix)).map((instance) => instance.build))];
  const keys = target.startsWith(`${globals.prefix}:`) ? [target] : await pageKeysOfBuilds(globals.prefix, builds, target);
  if (keys.length === 0) return { instances: [], memoryOnly: [] };
  const survey = await surveyL1(client, globals.prefix, keys, options.portal, globals.timeout);
  const memoryOnly = keys.flatMap((key) => {
    const l1 = survey.copies.get(key) ?? [];
    return l1.some((copy) => copy.copy === 'present') ? [{ key, l1 }] : [];
  });
  return { instances: survey.instances, memoryOnly };
}

async function pageKeysOfBuilds(prefix: string, builds: readonly string[], target: string): Promise<string[]> {
  const selector = await urlSelector(target, (host) => (host === undefined ? 0 : siteOfHost(host, 'inspect').id), false);
  if (selector.by !== 'url') return [];
  return builds.map((build) => cacheKey({ prefix, buildId: build }, 'page', selector.siteId, `${selector.pathname}${selector.search ?? ''}`));
}

/** Page keys of a URL in every build of the prefix (newest deploy and any older one still held). */
async function keysForUrl(client: RedisClient, prefix: string, target: string): Promise<string[]> {
  let selector;
  try {
    selector = await urlSelector(target, (host) => (host === undefined ? 0 : siteOfHost(host, 'inspect').id), false);
  } catch (error) {
    if (error instanceof PurgeInputError) throw new CliError(`inspect: ${error.message}, nor a key of prefix ${prefix}`, EXIT.usage);
    throw error;
  }
  if (selector.by !== 'url') return [];
  return scanKeys(client, `${escapeGlob(prefix)}:*:page:${selector.siteId}:${escapeGlob(`${selector.pathname}${selector.search ?? ''}`)}`);
}

async function pageReport(client: RedisClient, prefix: string, key: string): Promise<Omit<PageReport, 'l1'> | null> {
  const report = await inspectKey(client, key);
  if (!report) return null;
  const [lockTtl, data, explained, unindexed] = await Promise.all([
    client.pttl(lockKey(key)),
    dataEntries(client, prefix, key, report.tags),
    explain(client, report),
    unindexedTags(client, prefix, key, report.tags),
  ]);
  return {
    ...explained,
    lock: { held: lockTtl >= 0 || lockTtl === -1, expiresInMs: lockTtl >= 0 ? lockTtl : null },
    unindexed,
    data,
  };
}

/** The entry's tags whose index set does not hold its key. */
async function unindexedTags(client: RedisClient, prefix: string, key: string, tags: readonly string[]): Promise<string[]> {
  const held = await Promise.all(tags.map((tag) => client.sismember(tagSetKey(prefix, tag), key)));
  return tags.filter((_, index) => held[index] !== 1);
}

/** Data entries of the page's build holding only tags the page holds too: the calls it was built from. */
async function dataEntries(client: RedisClient, prefix: string, pageKey: string, tags: readonly string[]): Promise<PageReport['data']> {
  const build = pageKey.split(':')[1];
  const named = tags.filter((tag) => !GENERIC_TAG.test(tag));
  const members = await Promise.all(named.map((tag) => client.smembers(tagSetKey(prefix, tag))));
  const candidates = [...new Set(members.flat())].filter((key) => key.startsWith(`${prefix}:${build}:data:`)).sort();
  const pageTags = new Set(tags);
  const reports = await Promise.all(candidates.slice(0, MAX_DATA_ENTRIES * 4).map((key) => inspectKey(client, key)));
  return reports
    .filter((report): report is EntryReport => report !== null && report.tags.every((tag) => pageTags.has(tag) || tag.startsWith('data:')))
    .slice(0, MAX_DATA_ENTRIES)
    .reduce<Promise<Explained[]>>(async (done, report) => [...(await done), await explain(client, report)], Promise.resolve([]));
}

async function explain(client: RedisClient, report: EntryReport): Promise<Explained> {
  const failed = await readRefreshError(client, report.key);
  return {
    ...report,
    decision: DECISION[report.freshness],
    lastRefreshError: failed ? { ...failed, isoTime: new Date(failed.at).toISOString() } : null,
  };
}

function failure(entry: Explained, now = Date.now()): string {
  const failed = entry.lastRefreshError;
  return failed
    ? `last refresh failed ${formatDuration(Math.max(0, Math.round((now - failed.at) / 1000)))} ago (${failed.isoTime}): ${failed.error}`
    : 'no failed refresh on record';
}

function instanceName(instance: AskedInstance): string {
  return instance.id ? `${instance.id.slice(0, 8)} ${instance.url}` : instance.url;
}

function humanCopy(copy: L1Copy, instance: AskedInstance | undefined): string {
  const name = instance ? instanceName(instance) : copy.url;
  if (copy.copy === 'present') return `    present  age ${formatDuration(copy.ageSeconds ?? 0).padEnd(8)} ${(copy.freshness ?? '').padEnd(7)} ${name}`;
  if (copy.copy === 'absent') return `    absent   ${''.padEnd(21)} ${name}`;
  return `    ${copy.copy.padEnd(8)} ${(instance?.error ?? '').padEnd(21)} ${name}`;
}

function humanInstances(instances: AskedInstance[]): string {
  if (instances.length === 0) return 'instances: none announced in Redis (start a portal with REDIS_URL, or name one with --portal)';
  return [
    `instances (${instances.length}):`,
    ...instances.map((i) => {
      const about = [i.host && `host ${i.host}`, i.pid !== null && `pid ${i.pid}`, i.build && `build ${i.build}`, i.startedAt && `started ${i.startedAt}`]
        .filter(Boolean)
        .join(', ');
      const state = i.state === 'answered' ? `L1 ${i.l1 ?? 'off'}` : `${i.state}${i.error ? ` (${i.error})` : ''}`;
      return `  ${instanceName(i)} [${i.source}] ${state}${about ? `; ${about}` : ''}`;
    }),
  ].join('\n');
}

function humanReport(r: PageReport, instances: AskedInstance[]): string {
  const windows = `ttl ${formatDuration(r.ttl)}, grace ${formatDuration(r.grace)}, stale-if-error ${formatDuration(r.staleIfError)}`;
  return [
    r.key,
    `  ${r.decision}`,
    `  age ${formatDuration(r.ageSeconds)} (${windows}); ${kib(r.bytes)}; Redis keeps it ${formatDuration(Math.max(0, Math.round(r.expiresInMs / 1000)))} more`,
    `  ${failure(r)}`,
    `  lock: ${r.lock.held ? `held (a refresh is under way${r.lock.expiresInMs !== null ? `, expires in ${r.lock.expiresInMs} ms` : ''})` : 'none'}`,
    `  tags: ${r.tags.join(' ')}`,
    ...(r.unindexed.length > 0 ? [`  not in the index of: ${r.unindexed.join(' ')} (a purge of these tags does not find this page)`] : []),
    `  built from ${r.data.length} data entries${r.data.length > 0 ? ':' : ''}`,
    ...r.data.flatMap((d) => [
      `    ${d.freshness.padEnd(7)} age ${formatDuration(d.ageSeconds).padEnd(8)} ttl ${formatDuration(d.ttl).padEnd(6)} ${d.key}`,
      ...(d.lastRefreshError ? [`      ${failure(d)}`] : []),
    ]),
    `  in memory (L1) of ${r.l1.length} instance${r.l1.length === 1 ? '' : 's'}${r.l1.length > 0 ? ':' : ''}`,
    ...r.l1.map((copy, index) => humanCopy(copy, instances[index])),
  ].join('\n');
}
