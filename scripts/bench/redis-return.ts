/**
 * Capacity in the 30 s after Redis comes back (issue 35, item 1): a portal on a Redis of the bench's own holds
 * PAGES article pages in L1, a load asks for them in turn, Redis is stopped (by the PID the bench started) UP_S
 * seconds in and started again, empty, on the same port DOWN_S later, as a cache Redis without persistence comes
 * back from a restart. The row is the mean and the worst second of the 30 s after it answered, against the mean
 * second before the stop. Run by `npm run bench`; alone: `BENCH_ONLY=outage npm run bench`.
 */
import { loadFrom, startPortalProcess, startRedisServer, warmHits, type Running } from './processes';
import { articlePaths } from './render-portals';

const PAGES = Number(process.env.BENCH_OUTAGE_PAGES ?? 60);
const CONNECTIONS = 20;
const UP_S = 6;
/** Within the outage window (L1_OUTAGE_SERVE_S, 60 s by default): L1 answers as usual meanwhile. */
const DOWN_S = 5;
const AFTER_S = 30;

type Row = [string, string, string];

export async function redisReturnRows(common: Record<string, string>, upstreamUrl: string): Promise<Row[]> {
  let redis = await startRedisServer();
  const port = Number(new URL(redis.url).port);
  let portal: Running | null = null;
  try {
    portal = await startPortalProcess({ ...common, REDIS_URL: redis.url, CACHE_PREFIX: `${common.CACHE_PREFIX}r` });
    const paths = await articlePaths(upstreamUrl, PAGES);
    await warmHits(portal.url, paths);
    const spec = { url: portal.url, connections: CONNECTIONS, paths, cycle: true, perSecond: true };
    // Unmeasured: the first seconds of a load pay V8 compiling the hit path (bench.ts's loadInTurns).
    await loadFrom({ ...spec, seconds: 2 }, portal.pid);
    const times = { stopped: 0, back: 0 };
    let cycle: Promise<void> = Promise.resolve();
    const load = await loadFrom({ ...spec, seconds: UP_S + DOWN_S + AFTER_S + 1 }, portal.pid, () => {
      cycle = new Promise<void>((resolve, reject) => {
        setTimeout(() => {
          times.stopped = Date.now();
          void redis
            .stop()
            .then(() => new Promise((wait) => setTimeout(wait, DOWN_S * 1000)))
            .then(() => startRedisServer(port))
            .then((started) => {
              redis = started;
              times.back = Date.now();
              resolve();
            }, reject);
        }, UP_S * 1000);
      });
    });
    await cycle;
    if (times.back === 0) throw new Error('the load ended before Redis came back');
    const startedAt = load.startedAt ?? times.stopped;
    // loadFrom fails the bench on any failed answer: a row means none.
    return [row(load.perSecond ?? [], secondOf(times.stopped, startedAt), secondOf(times.back, startedAt), paths.length)];
  } finally {
    await portal?.stop();
    await redis.stop();
  }
}

function secondOf(at: number, startedAt: number): number {
  return Math.floor((at - startedAt) / 1000);
}

/** Mean second before the stop (the first left out: connections opening) against the 30 s from Redis's return. */
function row(perSecond: readonly number[], stopped: number, back: number, pages: number): Row {
  const up = perSecond.slice(1, stopped);
  const after = perSecond.slice(back + 1, back + 1 + AFTER_S);
  if (up.length === 0 || after.length < AFTER_S / 2) throw new Error(`too few seconds measured: ${perSecond.join(', ')}`);
  const mean = (seconds: readonly number[]) => seconds.reduce((sum, count) => sum + count, 0) / seconds.length;
  const warm = mean(up);
  const returned = mean(after);
  return [
    `Redis restarted empty under load, ${DOWN_S} s down (${pages} pages in L1)`,
    `warm ${warm.toFixed(0)} req/s; the ${after.length} s after it answered: mean ${returned.toFixed(0)}, worst second ${Math.min(...after)} req/s`,
    `${(returned / warm).toFixed(2)}× warm (target ≥ 0.7), worst ${(Math.min(...after) / warm).toFixed(2)}×, 0 failed; per second: ${after.join(' ')}`,
  ];
}
