/**
 * Capacity second by second through a Redis outage that crosses the outage window (issue 35, item 2): a portal on
 * a Redis of the bench's own holds OUTAGE_PAGES article pages in L1, a load asks for them in turn, Redis is stopped
 * (by the PID the bench started) UP_S seconds into the load, with the outage window shortened to WINDOW_S and the
 * outage TTL to TTL_S, and the load runs on for twice that TTL past the window and more. The pages are older than
 * twice the TTL at the window's end, so each counts its short TTL from its own moment
 * (tiered-store.ts's restartOf); stored times alone would expire all of them in one second. The row is the
 * worst second of the outage against the mean second with Redis up. Run by `npm run bench`; alone:
 * `BENCH_ONLY=outage npm run bench`.
 */
import { loadFrom, startPortalProcess, startRedisServer, warmHits, type Running } from './processes';
import { articlePaths } from './render-portals';

/**
 * Past the window each page is rendered once per outage TTL whatever happens (docs/cache.md): 60 pages over 10 s
 * is 6 renders a second, well within one instance's means, so what the row shows is how they are spread.
 */
const PAGES = Number(process.env.BENCH_OUTAGE_PAGES ?? 60);
const CONNECTIONS = 20;
const UP_S = 6;
const WINDOW_S = 4;
const TTL_S = 10;
/** Past the window: twice the TTL (every held page's short TTL and grace run out) and some seconds more. */
const AFTER_S = 2 * TTL_S + 6;

type Row = [string, string, string];

export async function outageExpiryRows(common: Record<string, string>, upstreamUrl: string): Promise<Row[]> {
  const redis = await startRedisServer();
  let portal: Running | null = null;
  try {
    portal = await startPortalProcess({
      ...common,
      REDIS_URL: redis.url,
      CACHE_PREFIX: `${common.CACHE_PREFIX}x`,
      L1_OUTAGE_SERVE_S: String(WINDOW_S),
      L1_OUTAGE_TTL_S: String(TTL_S),
    });
    const paths = await articlePaths(upstreamUrl, PAGES);
    await warmHits(portal.url, paths);
    // Older than twice the TTL at the window's end, as the pages of any outage longer than that are.
    await new Promise((resolve) => setTimeout(resolve, 2 * TTL_S * 1000));
    const spec = { url: portal.url, connections: CONNECTIONS, paths, cycle: true, perSecond: true };
    // Unmeasured: the first seconds of a load pay V8 compiling the hit path (bench.ts's loadInTurns).
    await loadFrom({ ...spec, seconds: 2 }, portal.pid);
    let stoppedAt = 0;
    let stopped: Promise<void> = Promise.resolve();
    const load = await loadFrom({ ...spec, seconds: UP_S + WINDOW_S + AFTER_S }, portal.pid, () => {
      setTimeout(() => {
        stoppedAt = Date.now();
        stopped = redis.stop();
      }, UP_S * 1000);
    });
    await stopped;
    if (stoppedAt === 0) throw new Error('the load ended before Redis was stopped');
    const mode = ((await (await fetch(`${portal.url}/readyz`)).json()) as { checks?: { l1?: string } }).checks?.l1;
    if (mode !== 'outage-short-ttl') throw new Error(`the portal was in mode ${mode}, not past the outage window`);
    return [row(load.perSecond ?? [], Math.floor((stoppedAt - (load.startedAt ?? stoppedAt)) / 1000), paths.length)];
  } finally {
    await portal?.stop();
    await redis.stop();
  }
}

/**
 * Mean second with Redis up (the first left out: connections opening), worst second from Redis's stop (second
 * `stopped` of the load) on; the last second is cut short by the load's end.
 */
function row(perSecond: readonly number[], stopped: number, pages: number): Row {
  const up = perSecond.slice(1, stopped);
  const down = perSecond.slice(stopped, -1);
  if (up.length === 0 || down.length === 0) throw new Error(`too few seconds measured: ${perSecond.join(', ')}`);
  const warm = up.reduce((sum, count) => sum + count, 0) / up.length;
  const worst = Math.min(...down);
  const at = down.indexOf(worst) - WINDOW_S;
  const windowEnd = down.slice(WINDOW_S).join(' ');
  return [
    `Redis stopped under load, across the outage window (${pages} pages, window ${WINDOW_S} s, outage TTL ${TTL_S} s)`,
    `warm ${warm.toFixed(0)} req/s; worst second of the outage ${worst} req/s (${at >= 0 ? `${at} s past` : `${-at} s before`} the window's end)`,
    `${(worst / warm).toFixed(2)}× warm (target ≥ 0.5), 0 failed; per second from the window's end: ${windowEnd}`,
  ];
}
