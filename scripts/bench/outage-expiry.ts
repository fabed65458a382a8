/**
 * Capacity second by second through a Redis outage that crosses the outage window (issue 47, item 5): two portal
 * processes on one redis-server of the bench's own each hold PAGES article pages in L1, one load per portal asks
 * for them in turn, Redis is stopped (by the PID the bench started) UP_S seconds into the loads, and the loads run
 * on for twice the outage TTL past the window and more. The outage TTL is the shipped one (30 s;
 * BENCH_OUTAGE_TTL_S to change it); the window is shortened to WINDOW_S, since past it its length changes nothing
 * but the run's (the shipped 300 s would add five idle minutes). The pages are older than twice the TTL at the
 * window's end, as the pages of any outage longer than that are, so each counts its short TTL from its own
 * moment (tiered-store.ts's restartOf and slotOf). Rows: for each portal and for both together, the worst second
 * from the stop on against the mean second with Redis up, and each portal's CPU per answer in both; with
 * BENCH_OUTAGE_STRESS=1 the same again beside `stress-ng --cpu 2` (=only: that alone), which the bench starts
 * (after the idle wait) and stops by its PID; with BENCH_OUTAGE_TRACE=1
 * what each portal did each second on stderr (outage-trace.ts). Run by `npm run bench`;
 * alone: `BENCH_ONLY=outage-window npm run bench` (with the other outage rows: BENCH_ONLY=outage).
 */
import { loadavg } from 'node:os';
import { spawnChild, type Child } from './children';
import { cpuMicrosOf, loadFrom, startPortalProcess, startRedisServer, warmHits, type LoadResult, type Running } from './processes';
import { traceSeconds } from './outage-trace';
import { articlePaths } from './render-portals';
import { redisServerMissing, stressNgMissing } from './requirements';

/**
 * Past the window each page is rendered once per outage TTL and instance whatever happens (docs/cache.md): 160
 * pages over 30 s is about 5 renders a second in each portal, so what the row shows is how they are spread and
 * whether readers wait for them.
 */
const PAGES = Number(process.env.BENCH_OUTAGE_PAGES ?? 160);
/** Per portal. */
const CONNECTIONS = 10;
const UP_S = 10;
const WINDOW_S = 4;
const TTL_S = Number(process.env.BENCH_OUTAGE_TTL_S ?? 30);
/** Past the window: twice the TTL (every held page's short TTL and grace run out) and some seconds more. */
const AFTER_S = 2 * TTL_S + 6;
/** Unmeasured: the first seconds of a load pay V8 compiling the hit path (bench.ts's loadInTurns). */
const COMPILE_S = 2;
const STRESS_CPUS = 2;

type Row = [string, string, string];

export async function outageExpiryRows(common: Record<string, string>, upstreamUrl: string): Promise<Row[]> {
  if (process.env.BENCH_OUTAGE_STRESS === 'only') return outageWindowRows(common, upstreamUrl, true);
  const quiet = await outageWindowRows(common, upstreamUrl, false);
  if (process.env.BENCH_OUTAGE_STRESS !== '1') return quiet;
  return [...quiet, ...(await outageWindowRows(common, upstreamUrl, true))];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

async function outageWindowRows(common: Record<string, string>, upstreamUrl: string, stressed: boolean): Promise<Row[]> {
  const setting = `${PAGES} pages, window ${WINDOW_S} s, outage TTL ${TTL_S} s${stressed ? `, beside stress-ng --cpu ${STRESS_CPUS}` : ''}`;
  const missing = (await redisServerMissing()) ?? (stressed ? await stressNgMissing() : null);
  if (missing) return [[`two portals, Redis stopped across the outage window (${setting})`, `skipped: ${missing}`, '']];
  const redis = await startRedisServer();
  const portals: Running[] = [];
  let stress: Child | null = null;
  try {
    const env = {
      ...common,
      REDIS_URL: redis.url,
      CACHE_PREFIX: `${common.CACHE_PREFIX}x${stressed ? 's' : ''}`,
      L1_OUTAGE_SERVE_S: String(WINDOW_S),
      L1_OUTAGE_TTL_S: String(TTL_S),
    };
    portals.push(await startPortalProcess(env), await startPortalProcess(env));
    const paths = await articlePaths(upstreamUrl, PAGES);
    for (const portal of portals) await warmHits(portal.url, paths);
    const newestStored = Date.now();
    // Older than twice the TTL at the window's end, as the pages of any outage longer than that are.
    await sleep(newestStored + (2 * TTL_S + 1) * 1000 - (Date.now() + (COMPILE_S + UP_S + WINDOW_S) * 1000));
    if (stressed) stress = spawnChild('stress-ng', 'stress-ng', ['--cpu', String(STRESS_CPUS)], { stdio: 'ignore' });
    const spec = (portal: Running) => ({ url: portal.url, connections: CONNECTIONS, paths, cycle: true, perSecond: true });
    await Promise.all(portals.map((portal) => loadFrom({ ...spec(portal), seconds: COMPILE_S }, portal.pid)));
    const loadBefore = loadavg()[0]!;
    const measured = await loadsAcrossTheStop(portals, spec, redis);
    const loadAfter = loadavg()[0]!;
    for (const portal of portals) await expectPastTheWindow(portal);
    const load = `load average ${loadBefore.toFixed(1)} at the loads' start, ${loadAfter.toFixed(1)} at their end`;
    return rowsOf(measured, setting, load);
  } finally {
    await stress?.stop();
    for (const portal of portals) await portal.stop();
    await redis.stop();
  }
}

interface Measured {
  loads: LoadResult[];
  /** Each portal's own CPU time (its process, /proc) in each second counted from the loads' origin, µs. */
  cpu: number[][];
  /** The first second (counted from the loads' common origin) in which both loads ran throughout. */
  firstWhole: number;
  /** The second in which Redis was stopped. */
  stopped: number;
}

/** One load per portal, counting the same seconds; Redis is stopped UP_S seconds after both have started. */
async function loadsAcrossTheStop(
  portals: readonly Running[],
  spec: (portal: Running) => { url: string; connections: number; paths: string[]; cycle: boolean; perSecond: boolean },
  redis: Running,
): Promise<Measured> {
  const countFrom = Date.now();
  const seconds = UP_S + WINDOW_S + AFTER_S;
  let started = 0;
  let stoppedAt = 0;
  let stopped: Promise<void> = Promise.resolve();
  const onStart = () => {
    started += 1;
    if (started < portals.length) return;
    setTimeout(() => {
      stoppedAt = Date.now();
      stopped = redis.stop();
    }, UP_S * 1000);
  };
  const windowEnd = (second: number) => second - Math.floor((stoppedAt - countFrom) / 1000) - WINDOW_S;
  const trace =
    process.env.BENCH_OUTAGE_TRACE === '1'
      ? traceSeconds(portals, countFrom, (second) => (stoppedAt === 0 ? 'Redis up' : `${windowEnd(second)} s from the window's end`))
      : null;
  const cpu = cpuBySecond(portals, countFrom);
  const loads = await Promise.all(portals.map((portal) => loadFrom({ ...spec(portal), seconds, countFrom }, portal.pid, onStart)));
  const cpuSeconds = cpu.stop();
  await trace?.stop();
  await stopped;
  if (stoppedAt === 0) throw new Error('the loads ended before Redis was stopped');
  const lastStart = Math.max(...loads.map((load) => load.startedAt ?? countFrom));
  return { loads, cpu: cpuSeconds, firstWhole: Math.ceil((lastStart - countFrom) / 1000), stopped: Math.floor((stoppedAt - countFrom) / 1000) };
}

/**
 * Each portal's CPU time read at every whole second from `origin` (a timer: on a busy machine a read may come late
 * and its second count a little of the next): whether a second with few answers was the portal working harder
 * (more CPU per answer) or getting less of the cores (about the same CPU per answer).
 */
function cpuBySecond(portals: readonly Running[], origin: number): { stop(): number[][] } {
  const reads: number[][] = portals.map(() => []);
  const read = () => {
    const second = Math.round((Date.now() - origin) / 1000);
    portals.forEach((portal, index) => (reads[index]![second] = cpuMicrosOf(portal.pid)));
  };
  read();
  let timer: NodeJS.Timeout;
  const next = () => {
    timer = setTimeout(
      () => {
        read();
        next();
      },
      1000 - ((Date.now() - origin) % 1000),
    );
  };
  next();
  return {
    stop: () => {
      clearTimeout(timer);
      return reads.map((at) => at.map((micros, second) => (at[second + 1] ?? micros) - micros).map((micros) => (Number.isFinite(micros) ? micros : 0)));
    },
  };
}

async function expectPastTheWindow(portal: Running): Promise<void> {
  const mode = ((await (await fetch(`${portal.url}/readyz`)).json()) as { checks?: { l1?: string } }).checks?.l1;
  if (mode !== 'outage-short-ttl') throw new Error(`the portal at ${portal.url} was in mode ${mode}, not past the outage window`);
}

/** For each portal and both together: the mean second with Redis up against the worst second from the stop on. */
function rowsOf(measured: Measured, setting: string, load: string): Row[] {
  const { loads, firstWhole, stopped } = measured;
  // The last second of the load that ended first is cut short by its end; every second after it too.
  const end = Math.min(...loads.map((result) => (result.perSecond ?? []).length)) - 1;
  const perPortal = loads.map((result) => (result.perSecond ?? []).slice(0, end));
  const together = perPortal[0]!.map((_count, second) => perPortal.reduce((sum, counts) => sum + (counts[second] ?? 0), 0));
  const rows = perPortal.map((counts, index) => {
    const cells = row(`portal ${index + 1} of 2`, counts, firstWhole, stopped);
    cells[2] += `; ${cpuPerAnswer(counts, measured.cpu[index] ?? [], firstWhole, stopped)}`;
    return cells;
  });
  const both = row(`both portals (${setting}; ${load})`, together, firstWhole, stopped);
  both[2] += `; per second from the stop (the window ends ${WINDOW_S} s in): ${together.slice(stopped).join(' ')}`;
  return [...rows.map((cells): Row => [`${cells[0]}, Redis stopped across the outage window`, cells[1], cells[2]]), both];
}

/** The portal's CPU per answer with Redis up and in its worst second: more there is work, the same is starving. */
function cpuPerAnswer(perSecond: readonly number[], cpu: readonly number[], firstWhole: number, stopped: number): string {
  const up = perSecond.slice(firstWhole + 1, stopped);
  const upCpu = cpu.slice(firstWhole + 1, stopped);
  const warm =
    upCpu.reduce((sum, micros) => sum + micros, 0) /
    Math.max(
      1,
      up.reduce((sum, count) => sum + count, 0),
    );
  const down = perSecond.slice(stopped);
  const worst = stopped + down.indexOf(Math.min(...down));
  const inWorst = (cpu[worst] ?? 0) / Math.max(1, perSecond[worst] ?? 0);
  return `server CPU/answer ${warm.toFixed(0)} µs warm, ${inWorst.toFixed(0)} µs in its worst second (${((cpu[worst] ?? 0) / 1000).toFixed(0)} ms CPU in it)`;
}

/**
 * Mean second with Redis up (the first whole one left out: connections opening), worst second from Redis's stop
 * (second `stopped`) on.
 */
function row(what: string, perSecond: readonly number[], firstWhole: number, stopped: number): Row {
  const up = perSecond.slice(firstWhole + 1, stopped);
  const down = perSecond.slice(stopped);
  if (up.length === 0 || down.length === 0) throw new Error(`too few seconds measured: ${perSecond.join(', ')}`);
  const warm = up.reduce((sum, count) => sum + count, 0) / up.length;
  const worst = Math.min(...down);
  const at = down.indexOf(worst) - WINDOW_S;
  return [
    what,
    `warm ${warm.toFixed(0)} req/s; worst second ${worst} req/s (${at >= 0 ? `${at} s past` : `${-at} s before`} the window's end)`,
    `${(worst / warm).toFixed(2)}× warm (target ≥ 0.5), 0 failed`,
  ];
}
