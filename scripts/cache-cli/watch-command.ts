/**
 * `watch`: the live hit ratio of running portals, one line per interval. The portals are found again every round
 * (instances announced in Redis come and go) plus any named with --portal; an instance that does not answer within
 * --timeout is named in that line's `failed` and left out of its ratio, and the watch goes on (exit code 5 at the
 * end if any round missed one or could not read Redis, 1 if a round had no answer at all).
 *
 * Lines keep the interval's pace: rounds start on a fixed schedule, and a round waits for an instance (and for
 * Redis) no longer than the interval, so one hung instance cannot stretch every line to --timeout.
 */
import { hitRatios } from '../../server/cache/stats';
import type { RedisClient } from '../../server/redis/client';
import { CliError, EXIT, errorText, jsonDocument, type Globals } from './output';
import { connect } from './redis';
import { portalTargets, scrape, sleep, windowed, within, type Scrape } from './portals';

export async function watchCommand(globals: Globals, options: { portal: string[]; interval: number; count?: number }): Promise<void> {
  const client = await discoveryClient(globals, options.portal);
  try {
    await rounds(globals, client, options);
  } finally {
    client?.disconnect();
  }
}

/** Redis to find the announced instances in; without it, --portal alone still gives a watch (said on stderr). */
async function discoveryClient(globals: Globals, portals: string[]): Promise<RedisClient | null> {
  try {
    return await connect(globals.redis, globals.timeout);
  } catch (error) {
    if (portals.length === 0 || !(error instanceof CliError)) throw error;
    process.stderr.write(`portal-cache: ${error.message}; watching only the --portal instances\n`);
    return null;
  }
}

async function rounds(globals: Globals, client: RedisClient | null, options: { portal: string[]; interval: number; count?: number }): Promise<void> {
  const portals = async (): Promise<string[]> => (await portalTargets(client, globals.prefix, options.portal)).map((target) => target.url);
  const first = await portals();
  if (first.length === 0)
    throw new CliError(`no instance announced in Redis under prefix ${globals.prefix}; name a running portal with --portal URL`, EXIT.failed);
  const bound = Math.min(globals.timeout, options.interval);
  let before: Scrape = await scrape(first, bound);
  const started = Date.now();
  // Redis lost during the watch (it restarts, the network drops) is not the portals' fault: each round then asks
  // the instances last found, and its line says why the list may be out of date.
  let known = first;
  const current = async (): Promise<{ urls: string[]; redis: string | null }> => {
    try {
      known = await within(portals(), bound);
      return { urls: known, redis: null };
    } catch (error) {
      return { urls: known, redis: `${errorText(error)} (asking the instances last found)` };
    }
  };
  for (let round = 1; options.count === undefined || round <= options.count; round += 1) {
    await sleep(started + round * options.interval * 1000 - Date.now());
    const found = await current();
    const after = await scrape(found.urls, bound);
    const { after: now, before: then } = windowed(after, before);
    const ratios = hitRatios(now, then);
    before = after;
    const totals = ratios.rows.reduce((sum, row) => ({ hits: sum.hits + row.hits + row.stale, looked: sum.looked + row.hits + row.stale + row.misses }), {
      hits: 0,
      looked: 0,
    });
    const ratio = totals.looked === 0 ? null : totals.hits / totals.looked;
    const answered = after.byPortal.size;
    const line = {
      at: new Date().toISOString(),
      hitRatio: ratio,
      lookups: totals.looked,
      upstreamErrors: ratios.upstreamErrors,
      instances: answered,
      failed: after.failed,
      ...(found.redis === null ? {} : { redis: found.redis }),
      rows: ratios.rows,
    };
    const missing = after.failed.map((failed) => `  no answer: ${failed.error}`).join('') + (found.redis === null ? '' : `  redis: ${found.redis}`);
    process.stdout.write(
      globals.json
        ? `${JSON.stringify(jsonDocument('watch', line))}\n`
        : `${line.at}  hit ${ratio === null ? '-' : `${(ratio * 100).toFixed(1)}%`}  lookups ${totals.looked}  upstream errors ${ratios.upstreamErrors}  instances ${answered}${missing}\n`,
    );
    if (answered === 0) process.exitCode = EXIT.failed;
    else if ((after.failed.length > 0 || found.redis !== null) && process.exitCode !== EXIT.failed) process.exitCode = EXIT.partial;
  }
}
