/**
 * What each portal did second by second during the outage-window row (BENCH_OUTAGE_TRACE=1, outage-expiry.ts),
 * read from its /metrics once a second: renders, page and data lookups that were not HITs, upstream calls, its
 * CPU and GC time. Printed on stderr, a line a second, so a dip in the row's per-second answers can be matched to
 * what the portals did in it (renders bunching, readers waiting on renders, GC). The scrapes cost each portal a
 * little CPU: rows measured with the trace on are not the row's figures.
 */
import type { Running } from './processes';

/** Counter sums from one scrape. */
type Totals = Record<string, number>;

const COUNTED: Array<[name: string, test: (line: string) => boolean]> = [
  ['renders', (line) => line.startsWith('portal_render_duration_seconds_count')],
  ['page STALE', (line) => line.startsWith('portal_cache_results_total{kind="page"') && line.includes('result="STALE"')],
  ['page MISS', (line) => line.startsWith('portal_cache_results_total{kind="page"') && line.includes('result="MISS"')],
  ['data STALE', (line) => line.startsWith('portal_cache_results_total{kind="data"') && line.includes('result="STALE"')],
  ['data MISS', (line) => line.startsWith('portal_cache_results_total{kind="data"') && line.includes('result="MISS"')],
  ['upstream', (line) => line.startsWith('portal_upstream_duration_seconds_count')],
  ['cpu ms', (line) => line.startsWith('portal_process_cpu_seconds_total')],
  ['gc ms', (line) => line.startsWith('portal_nodejs_gc_duration_seconds_sum')],
];

const IN_MS = new Set(['cpu ms', 'gc ms']);

async function totalsOf(portal: Running): Promise<Totals> {
  const text = await (await fetch(`${portal.url}/metrics`)).text();
  const totals: Totals = Object.fromEntries(COUNTED.map(([name]) => [name, 0]));
  for (const line of text.split('\n')) {
    for (const [name, test] of COUNTED) if (test(line)) totals[name]! += Number(line.slice(line.lastIndexOf(' ') + 1)) * (IN_MS.has(name) ? 1000 : 1);
  }
  return totals;
}

function difference(after: Totals, before: Totals): string {
  return COUNTED.map(([name]) => `${name} ${Math.round(after[name]! - before[name]!)}`).join(', ');
}

/**
 * Scrapes `portals` once a second until stopped, printing each second's differences; seconds are counted from
 * `origin` (Date.now()) and labelled by `label`.
 */
export function traceSeconds(portals: readonly Running[], origin: number, label: (second: number) => string): { stop(): Promise<void> } {
  let running = true;
  const done = (async () => {
    let before = await Promise.all(portals.map(totalsOf));
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, 1000 - ((Date.now() - origin) % 1000)));
      const second = Math.floor((Date.now() - origin) / 1000) - 1;
      const after = await Promise.all(portals.map(totalsOf));
      const parts = after.map((totals, index) => `portal ${index + 1}: ${difference(totals, before[index]!)}`);
      process.stderr.write(`[trace] second ${second} (${label(second)}) ${parts.join(' | ')}\n`);
      before = after;
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done.catch((error: unknown) => process.stderr.write(`[trace] stopped: ${String(error)}\n`));
    },
  };
}
