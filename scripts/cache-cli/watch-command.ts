/** `watch`: the live hit ratio of running portals, one line per interval. */
import { hitRatios } from '../../server/cache/stats';
import { jsonDocument, type Globals } from './output';
import { scrape, sleep } from './portals';

export async function watchCommand(globals: Globals, options: { portal: string[]; interval: number; count?: number }): Promise<void> {
  let before = await scrape(options.portal);
  for (let round = 1; options.count === undefined || round <= options.count; round += 1) {
    await sleep(options.interval * 1000);
    const after = await scrape(options.portal);
    const ratios = hitRatios(after, before);
    before = after;
    const totals = ratios.rows.reduce((sum, row) => ({ hits: sum.hits + row.hits + row.stale, looked: sum.looked + row.hits + row.stale + row.misses }), {
      hits: 0,
      looked: 0,
    });
    const ratio = totals.looked === 0 ? null : totals.hits / totals.looked;
    const line = { at: new Date().toISOString(), hitRatio: ratio, lookups: totals.looked, upstreamErrors: ratios.upstreamErrors, rows: ratios.rows };
    process.stdout.write(
      globals.json
        ? `${JSON.stringify(jsonDocument('watch', line))}\n`
        : `${line.at}  hit ${ratio === null ? '-' : `${(ratio * 100).toFixed(1)}%`}  lookups ${totals.looked}  upstream errors ${ratios.upstreamErrors}\n`,
    );
  }
}
