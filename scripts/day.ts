/**
 * `npm run day`: a newspaper's day in ten minutes (issue 39). The portal as deployed (bench/edge-stack.ts: the
 * reference content API, a Redis of its own, two portals from the production bundle, varnishd with the shipped VCL
 * in front) driven through the edge by the traffic of a national news site (day/traffic.ts) while the newsroom
 * corrects a headline every 2 s, takes articles down, switches grey mode and has Redis restarted half way
 * (day/newsroom.ts); every view's body is checked for corrected headlines and taken-down articles (day/truth.ts).
 * Writes bench-results/day-<time>.{json,md,svg} and exits 1 when a target is missed: 0 errors, 0 stale views,
 * 0 leaks, each portal's RSS ≤ 5 % more at the end than in the middle, and views/s through the Redis restart never
 * below half the run's median for more than 5 s.
 *
 * With `--faults` (day/faults.ts) the Redis restart gives way to a fault schedule (Redis frozen 4 s and 30 s and
 * restarted empty, a portal frozen and one killed, the CMS failing and stalling, the edge restarted), a correction
 * and a takedown sent as each begins, two edges behind nginx as the readers' balancer (the one restarted is
 * routed around, as behind a CDN), and a real Prometheus (day/prometheus.ts) evaluating the shipped alert rules:
 * the report gives each fault's errors, stale views, p99, dip and alerts, and the alerts of the quiet minutes.
 *
 *   npm run day -- [--minutes 10] [--rate 120] [--concurrency 24] [--readers 20] [--seed 1] [--out bench-results] [--faults]
 */
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { MAIN_DOMAIN } from '../shared/sites';
import { PROJECT_ROOT } from '../server/render/assets';
import { parsePrometheus } from '../server/cache/stats';
import { runStoppingChildren } from './bench/children';
import { startEdgeStack, type EdgeStack } from './bench/edge-stack';
import { prometheusMissing } from './bench/requirements';
import { cpuMicrosOf, rssKiBOf } from './bench/processes';
import { get, signIn } from './day/client';
import { diagnoseStale, type Diagnosis } from './day/diagnose';
import { faultPlan, type FaultWindow } from './day/faults';
import { FirstViews } from './day/first-views';
import { runNewsroom, type Newsroom } from './day/newsroom';
import { startPrometheus, type FiredAlert, type RunningPrometheus } from './day/prometheus';
import { chartSvg, classRows, longestDip, median, minutesOf, PERIOD_HEADER, periodOf, periodRow, type Second } from './day/report';
import { catalogueOf, headShare, HEAD_SIZE, traffic, type View } from './day/traffic';
import { Ledger, type ViewFacts } from './day/truth';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '120' },
    concurrency: { type: 'string', default: '24' },
    readers: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: path.join(PROJECT_ROOT, 'bench-results') },
    faults: { type: 'boolean', default: false },
  },
});
const FAULTS = args.faults ? faultPlan(Number(args.minutes)) : [];
const MINUTES = Number(args.minutes);
const RATE = Number(args.rate);
const CONCURRENCY = Number(args.concurrency);
const READERS = Number(args.readers);
const SEED = Number(args.seed);
/** Views may fall this far behind the schedule before the ones missed are given up (counted as behind). */
const MOST_BEHIND_S = 2;
const RSS_GROWTH_TARGET = 0.05;
const RSS_JUDGED_FROM_MINUTES = 5;
const DIP_MOST_S = 5;
/** After the restart, the seconds within which views/s must have come back. */
const RESTART_WINDOW_S = 30;
/** Stale pages inspected while still held (day/diagnose.ts), the first ones of the run, one per address. */
const DIAGNOSED_MOST = 5;

interface ProcessRss {
  name: string;
  pid: () => number;
  kib: { start: number; middle: number; end: number };
}

type Moment = 'start' | 'middle' | 'end';

/**
 * What a portal's memory holds: its RSS (from /proc) and, from its /metrics, the L1's bytes (bounded), V8's heap
 * committed and in use, Buffers outside it; read at the same moment, so RSS growth can be told apart.
 */
interface PortalMemory {
  rss: number;
  l1: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/** Each figure of PortalMemory read from /metrics: its label in the report and its sample. */
const METRICS_FIGURES: ReadonlyArray<{ figure: Exclude<keyof PortalMemory, 'rss'>; label: string; sample: string }> = [
  { figure: 'l1', label: 'L1 held', sample: 'portal_cache_l1_bytes' },
  { figure: 'heapTotal', label: 'V8 heap committed', sample: 'portal_nodejs_heap_size_total_bytes' },
  { figure: 'heapUsed', label: 'V8 heap used', sample: 'portal_nodejs_heap_size_used_bytes' },
  { figure: 'external', label: 'external (Buffers)', sample: 'portal_nodejs_external_memory_bytes' },
];

/** Each portal's memory figures now (bytes; 0 for a figure its /metrics did not give). */
async function portalMemory(stack: EdgeStack): Promise<PortalMemory[]> {
  return Promise.all(
    stack.portals.map(async (portal) => {
      const rss = rssKiBOf(portal.pid) * 1024;
      const samples = parsePrometheus(await fetch(`${portal.url}/metrics`).then((res) => res.text()));
      const value = (name: string) => samples.find((sample) => sample.name === name)?.value ?? 0;
      const memory: PortalMemory = { rss, l1: 0, heapTotal: 0, heapUsed: 0, external: 0 };
      for (const { figure, sample } of METRICS_FIGURES) memory[figure] = value(sample);
      return memory;
    }),
  );
}

interface ErrorView {
  at: number;
  cls: string;
  reader: string;
  host: string;
  path: string;
  what: string;
}

/** The portals' /metrics counters the report reads: page/data lookups by result, Redis entry reads. */
async function cacheCounters(stack: EdgeStack): Promise<{ lookups: number; hits: number; redisReads: number; pageLookups: number; pageHits: number }> {
  const totals = { lookups: 0, hits: 0, redisReads: 0, pageLookups: 0, pageHits: 0 };
  for (const portal of stack.portals) {
    const text = await fetch(`${portal.url}/metrics`).then((res) => res.text());
    for (const line of text.split('\n')) {
      const cache = /^portal_cache_results_total\{([^}]*)\} (\d+)/.exec(line);
      if (cache) {
        const labels = cache[1]!;
        const count = Number(cache[2]);
        if (labels.includes('result="PASS"')) continue;
        const hit = /result="(HIT|STALE)"/.test(labels);
        totals.lookups += count;
        if (hit) totals.hits += count;
        if (labels.includes('kind="page"')) {
          totals.pageLookups += count;
          if (hit) totals.pageHits += count;
        }
      }
      const reads = /^portal_redis_command_duration_seconds_count\{([^}]*)\} (\d+)/.exec(line);
      if (reads && reads[1]!.includes('op="get"')) totals.redisReads += Number(reads[2]);
    }
  }
  return totals;
}

/** The list pages of the main site, as its site map links them. */
async function listPages(edge: string, agent: http.Agent): Promise<Array<{ host: string; path: string }>> {
  const siteMap = await get(edge, { host: MAIN_DOMAIN, path: '/siteMap' }, agent);
  const paths = [...new Set([...siteMap.body.matchAll(/href="((?:\/[\w-]+)*\/V[12]\/\d+)"/g)].map((match) => match[1]!))];
  if (paths.length === 0) throw new Error('the site map links no list page');
  return paths.map((listPath) => ({ host: MAIN_DOMAIN, path: listPath }));
}

/**
 * Whether an answer is what a reader of that page should get (anything else is an error). A taken-down article
 * is a 404 once the CMS says so. An article taken down or corrected (a hard purge: its old text may not be shown
 * again) while the CMS is away can be neither asked for nor shown as it was: a 503 with Retry-After is right
 * (docs/publish-hook.md).
 */
function expected(
  view: View,
  answer: { status: number; location: string | undefined; retryAfter: string | undefined },
  article: { takenDown: boolean; withdrawnWhileAway: boolean },
): string | null {
  const { status } = answer;
  if (view.cls === 'article' && view.reader === 'phone')
    return status === 302 && answer.location?.includes(`id=${view.articleId}`) ? null : `phone article answered ${status}`;
  if (view.cls === 'article' && article.takenDown && status === 404) return null;
  if (view.cls === 'article' && article.withdrawnWhileAway && status === 503 && answer.retryAfter !== undefined) return null;
  return status === 200 ? null : `answered ${status}`;
}

async function main(): Promise<number> {
  const loadAtStart = loadavg();
  process.stdout.write(`day: starting the stack (load average ${loadAtStart.map((load) => load.toFixed(2)).join(' ')})\n`);
  const missing = FAULTS.length > 0 ? await prometheusMissing() : null;
  if (missing) {
    process.stderr.write(`day: ${missing}\n`);
    return 1;
  }
  // With faults, two edges behind a balancer (as behind a CDN): the edge restarted is one of them.
  const stack = await startEdgeStack({ edges: FAULTS.length > 0 ? 2 : 1 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 4 });
  let prometheus: RunningPrometheus | null = null;
  try {
    if (FAULTS.length > 0) prometheus = await startPrometheus(stack.portals.map((portal) => portal.url));
    const dataset = stack.upstream.api.dataset;
    const catalogue = catalogueOf(dataset, await listPages(stack.edgeUrl, agent));
    const cookies: string[] = [];
    for (let reader = 0; reader < READERS; reader += 1) cookies.push(await signIn(stack.edgeUrl, stack.upstream.url, `读者${reader + 1}`, agent));
    const views = traffic(catalogue, () => cookies, SEED);
    const run = randomBytes(2).toString('hex');
    const ledger = new Ledger(run);
    const durationMs = MINUTES * 60_000;
    const seconds: Second[] = [];
    const errors: ErrorView[] = [];
    const unheld: ErrorView[] = [];
    const firstViews = new FirstViews();
    const diagnoses = new Map<string, Promise<Diagnosis>>();
    let behind = 0;

    const processes: ProcessRss[] = [
      ...stack.portals.map((portal, index) => ({ name: `portal ${index + 1}`, pid: () => portal.pid, kib: { start: 0, middle: 0, end: 0 } })),
      { name: 'redis-server', pid: () => stack.redis.pid, kib: { start: 0, middle: 0, end: 0 } },
      { name: 'varnishd (and its cache process)', pid: () => stack.varnish.pid, kib: { start: 0, middle: 0, end: 0 } },
      { name: 'this process (traffic, reference API)', pid: () => process.pid, kib: { start: 0, middle: 0, end: 0 } },
    ];
    const rssAt = (when: Moment) => processes.forEach((entry) => (entry.kib[when] = rssKiBOf(entry.pid())));
    const memory: Partial<Record<Moment, PortalMemory[]>> = {};
    const memoryAt = async (when: Moment) => {
      memory[when] = await portalMemory(stack).catch(() => undefined);
    };
    const minuteMemory: Array<Promise<PortalMemory[] | undefined>> = [];
    const counters = { start: await cacheCounters(stack), end: await cacheCounters(stack) };
    rssAt('start');
    await memoryAt('start');

    const startedAt = performance.now();
    const end = startedAt + durationMs;
    const secondOf = (at: number) => {
      const t = Math.floor((at - startedAt) / 1000);
      while (seconds.length <= t)
        seconds.push({
          t: seconds.length,
          views: 0,
          errors: 0,
          unheld: 0,
          edgeHits: 0,
          stale: 0,
          leaks: 0,
          originCpuMicros: 0,
          cmsCalls: 0,
          latencies: [],
          byClass: {},
        });
      return seconds[t]!;
    };
    let cpu = stack.portals.reduce((total, portal) => total + cpuMicrosOf(portal.pid), 0);
    let cms = stack.upstream.api.control.stats().total;
    const sampler = setInterval(() => {
      const now = performance.now();
      const second = secondOf(now - 1);
      const cpuNow = stack.portals.reduce((total, portal) => total + cpuMicrosOf(portal.pid), 0);
      const cmsNow = stack.upstream.api.control.stats().total;
      second.originCpuMicros += cpuNow - cpu;
      second.cmsCalls += cmsNow - cms;
      cpu = cpuNow;
      cms = cmsNow;
    }, 1000);
    // Whether RSS levels off or keeps growing shows only minute by minute, beside what the portals say they hold.
    const minuteSampler = setInterval(() => minuteMemory.push(portalMemory(stack).catch(() => undefined)), 60_000);
    let middleMemory: Promise<void> = Promise.resolve();
    const middle = setTimeout(
      () => {
        rssAt('middle');
        middleMemory = memoryAt('middle');
      },
      durationMs * 0.5 - 2000,
    );
    const newsroom: Newsroom = runNewsroom(stack, ledger, catalogue.articles, startedAt, durationMs, FAULTS);
    const wallStart = Date.now() - (performance.now() - startedAt);

    let ticket = 0;
    const worker = async () => {
      for (;;) {
        const now = performance.now();
        const due = Math.max(ticket, Math.floor(((now - startedAt) / 1000 - MOST_BEHIND_S) * RATE));
        behind += due - ticket;
        ticket = due + 1;
        const at = startedAt + (due * 1000) / RATE;
        if (at >= end) return;
        if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
        await viewOnce(views.next());
      }
    };

    const viewOnce = async (view: View) => {
      const started = performance.now();
      const cmsAway = newsroom.cmsAway();
      const headers: Record<string, string> = { 'user-agent': view.userAgent, ...(view.cookie ? { cookie: view.cookie } : {}) };
      const answer = await get(stack.edgeUrl, { host: view.host, path: view.path, headers }, agent).catch((error: unknown) => error as Error);
      const ended = performance.now();
      const second = secondOf(ended);
      second.views += 1;
      second.latencies.push(ended - started);
      (second.byClass[view.cls] ??= []).push(ended - started);
      const fail = (what: string) => {
        second.errors += 1;
        if (errors.length < 200) errors.push({ at: (started - startedAt) / 1000, cls: view.cls, reader: view.reader, host: view.host, path: view.path, what });
      };
      if (answer instanceof Error) return fail(answer.message);
      const edgeCache = String(answer.headers['x-edge-cache'] ?? '');
      if (edgeCache === 'HIT' || edgeCache === 'STALE') second.edgeHits += 1;
      const takenDown = view.articleId !== undefined && ledger.isTakenDown(view.articleId);
      const refusal = { status: answer.status, retryAfter: answer.headers['retry-after'] };
      // Taken down, or corrected since a reader was last given the page: no cache can hold what it says now.
      const correctedAt = view.articleId === undefined ? undefined : ledger.correctedAt(view.articleId);
      const givenAt = firstViews.givenAt(`${view.host}${view.path}`);
      const newTextUnheld = takenDown || (correctedAt !== undefined && (givenAt === undefined || givenAt < correctedAt));
      const withdrawnWhileAway = view.articleId !== undefined && newTextUnheld && (cmsAway || newsroom.cmsAway());
      const wrong = expected(view, { ...refusal, location: answer.headers.location }, { takenDown, withdrawnWhileAway });
      if (firstViews.unheld(`${view.host}${view.path}`, refusal, wrong === null, cmsAway || newsroom.cmsAway(), ended)) {
        second.unheld += 1;
        if (unheld.length < 50)
          unheld.push({ at: (started - startedAt) / 1000, cls: view.cls, reader: view.reader, host: view.host, path: view.path, what: wrong ?? '' });
      } else if (wrong) {
        const served = `edge ${edgeCache || '-'}, portal ${String(answer.headers['x-cache'] ?? '-')}, retry-after ${String(answer.headers['retry-after'] ?? '-')}`;
        fail(`${wrong} (${served}): ${answer.body.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
      const facts: ViewFacts = {
        cls: view.cls,
        reader: view.reader,
        host: view.host,
        path: view.path,
        ...(view.articleId !== undefined ? { articleId: view.articleId } : {}),
        startedAt: started,
        status: answer.status,
        edgeCache,
        originCache: String(answer.headers['x-cache'] ?? ''),
        age: String(answer.headers.age ?? ''),
      };
      const truth = ledger.check(facts, answer.body);
      if (truth.stale) second.stale += 1;
      const url = `http://${view.host}${view.path}`;
      const stale = truth.stale ? ledger.stale.at(-1) : undefined;
      if (stale && diagnoses.size < DIAGNOSED_MOST && !diagnoses.has(url)) {
        const portals = stack.portals.map((portal) => portal.url);
        diagnoses.set(url, diagnoseStale(stack.redis.url, stack.cachePrefix, portals, { url, article: stale.article, marker: stale.marker }));
      }
      if (truth.leak) second.leaks += 1;
    };

    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await newsroom.done;
    clearInterval(sampler);
    clearInterval(minuteSampler);
    clearTimeout(middle);
    rssAt('end');
    await Promise.all([middleMemory, memoryAt('end')]);
    counters.end = await cacheCounters(stack);
    const diagnosed = await Promise.all(diagnoses.values());
    const alerts = prometheus ? await prometheus.firedBetween(Math.floor(wallStart / 1000), Math.ceil(Date.now() / 1000)) : [];
    const loadAtEnd = loadavg();
    return writeReport({
      stack,
      seconds,
      errors,
      unheld,
      behind,
      ledger,
      newsroom,
      processes,
      counters,
      startedAt,
      loads: [loadAtStart, loadAtEnd],
      catalogueSize: catalogue.articles.length,
      diagnosed,
      memory,
      memoryByMinute: await Promise.all(minuteMemory),
      alerts,
      wallStart,
    });
  } finally {
    agent.destroy();
    await prometheus?.stop();
    await stack.stop();
  }
}

interface Outcome {
  stack: EdgeStack;
  seconds: Second[];
  errors: ErrorView[];
  /** Pages nobody had been given yet, refused while the CMS was away (first-views.ts): the first 50. */
  unheld: ErrorView[];
  behind: number;
  ledger: Ledger;
  newsroom: Newsroom;
  processes: ProcessRss[];
  counters: { start: Awaited<ReturnType<typeof cacheCounters>>; end: Awaited<ReturnType<typeof cacheCounters>> };
  startedAt: number;
  loads: number[][];
  catalogueSize: number;
  /** The first stale pages, inspected while still held. */
  diagnosed: Diagnosis[];
  /** The portals' memory figures at the start, the middle and the end. */
  memory: Partial<Record<Moment, PortalMemory[]>>;
  /** The portals' memory figures at the end of each whole minute (undefined where /metrics did not answer). */
  memoryByMinute: Array<PortalMemory[] | undefined>;
  /** What the day's Prometheus found firing (a day with faults), and the run's start by the wall clock (ms). */
  alerts: FiredAlert[];
  wallStart: number;
}

function writeReport(outcome: Outcome): number {
  const { seconds, ledger, newsroom, processes, counters } = outcome;
  const runPeriod = periodOf('run', seconds);
  const minutes = minutesOf(seconds);
  const medianViews = median(seconds.map((second) => second.views));
  const restart = newsroom.restart;
  const restartFrom = restart ? Math.floor((restart.from - outcome.startedAt) / 1000) : 0;
  const dip = restart
    ? longestDip(seconds, medianViews / 2, restartFrom, Math.ceil((restart.to - outcome.startedAt) / 1000) + RESTART_WINDOW_S)
    : { seconds: 0, at: 0 };
  const growth = processes
    .filter((entry) => entry.name.startsWith('portal'))
    .map((entry) => ({ name: entry.name, growth: entry.kib.end / Math.max(1, entry.kib.middle) - 1 }));
  const faultRows = newsroom.faults.map((window, index) => faultRow(window, newsroom.faults[index + 1], outcome, medianViews));
  const quietAlerts = outcome.alerts.filter((alert) => !faultRows.some((row) => alertBelongs(alert, row, outcome.wallStart)));
  const delta = (pick: (counter: Outcome['counters']['end']) => number) => pick(counters.end) - pick(counters.start);
  const lookups = delta((counter) => counter.lookups);
  const ratios = {
    edge: runPeriod.edgeHitRatio,
    originCache: lookups === 0 ? 0 : delta((counter) => counter.hits) / lookups,
    originPages: delta((counter) => counter.pageLookups) === 0 ? 0 : delta((counter) => counter.pageHits) / delta((counter) => counter.pageLookups),
    l1: lookups === 0 ? 0 : 1 - delta((counter) => counter.redisReads) / lookups,
  };
  const targets = [
    {
      target: '0 errors',
      met: runPeriod.errors === 0 && newsroom.failures.length === 0,
      figure: `${runPeriod.errors} errors, ${newsroom.failures.length} hook failures${runPeriod.unheld > 0 ? ` (and ${runPeriod.unheld} first views of pages no cache held, refused while the CMS was away)` : ''}`,
    },
    { target: '0 leaks', met: ledger.leaks.length === 0, figure: `${ledger.leaks.length}` },
    { target: '0 stale views', met: ledger.stale.length === 0, figure: `${ledger.stale.length}` },
    {
      target: 'each portal RSS ≤ +5 % middle → end',
      // In a short run the middle is still the portals' warm-up (L1 filling with the pages first asked for).
      met: MINUTES < RSS_JUDGED_FROM_MINUTES ? null : growth.every((entry) => entry.growth <= RSS_GROWTH_TARGET),
      figure: `${growth.map((entry) => `${entry.name} ${(entry.growth * 100).toFixed(1)} %`).join(', ')}${MINUTES < RSS_JUDGED_FROM_MINUTES ? ` (not judged: runs under ${RSS_JUDGED_FROM_MINUTES} min)` : ''}`,
    },
    ...(faultRows.length > 0
      ? faultTargets(faultRows, quietAlerts)
      : [
          {
            target: `views/s through the Redis restart never < ½ median (${(medianViews / 2).toFixed(0)}) for > ${DIP_MOST_S} s`,
            met: restart !== null && dip.seconds <= DIP_MOST_S,
            figure: restart
              ? `longest dip ${dip.seconds} s (at ${dip.at} s; restart at ${restartFrom} s, ${(restart.to - restart.from).toFixed(0)} ms)`
              : 'no restart happened',
          },
        ]),
  ];
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  mkdirSync(args.out!, { recursive: true });
  const base = path.join(args.out!, `day-${stamp}`);
  const json = {
    options: { minutes: MINUTES, rate: RATE, concurrency: CONCURRENCY, readers: READERS, seed: SEED, faults: FAULTS.length > 0 },
    faults: faultRows,
    alerts: outcome.alerts,
    quietAlerts,
    node: process.version,
    loadAverage: { start: outcome.loads[0], end: outcome.loads[1] },
    articles: outcome.catalogueSize,
    headShare: headShare(outcome.catalogueSize, HEAD_SIZE),
    run: runPeriod,
    minutes,
    ratios,
    behindSchedule: outcome.behind,
    medianViewsPerSecond: medianViews,
    restart: restart ? { atSecond: restartFrom, ms: restart.to - restart.from, longestDip: dip } : null,
    rssKiB: processes.map((entry) => ({ name: entry.name, ...entry.kib })),
    portalMemoryBytes: outcome.memory,
    portalMemoryBytesByMinute: outcome.memoryByMinute,
    targets,
    errors: outcome.errors,
    unheld: outcome.unheld,
    stale: ledger.stale,
    staleInspected: outcome.diagnosed,
    leaks: ledger.leaks,
    hookFailures: newsroom.failures,
    events: newsroom.events,
    perSecond: seconds.map(({ latencies: _latencies, byClass: _byClass, ...second }) => second),
  };
  writeFileSync(`${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  const corrections = newsroom.events.filter((event) => event.kind === 'correction');
  const hookMs = corrections.map((event) => event.ms).sort((left, right) => left - right);
  const events = newsroom.events.filter((event) => event.kind !== 'correction').map((event) => ({ at: event.at / 1000, label: event.kind }));
  writeFileSync(`${base}.svg`, chartSvg(seconds, events));
  const markdown = [
    `# A newspaper's day: ${MINUTES} min at ${RATE} views/s offered (${CONCURRENCY} connections), ${stamp}`,
    '',
    `Load average at the start ${outcome.loads[0]!.map((load) => load.toFixed(2)).join(' ')}, at the end ${outcome.loads[1]!.map((load) => load.toFixed(2)).join(' ')}. ${outcome.catalogueSize} articles, the ${HEAD_SIZE} newest getting ${(json.headShare * 100).toFixed(0)} % of article views (Zipf, s = 1). Views given up behind schedule: ${outcome.behind}. Portals on Node ${process.version} (this process's).`,
    '',
    '## Targets',
    '',
    '| target | met | figure |',
    '| --- | --- | --- |',
    ...targets.map((entry) => `| ${entry.target} | ${entry.met === null ? '–' : entry.met ? 'yes' : '**no**'} | ${entry.figure} |`),
    '',
    ...faultReportRows(faultRows, quietAlerts),
    '## Per minute and for the run',
    '',
    PERIOD_HEADER,
    ...minutes.map(periodRow),
    periodRow(runPeriod),
    '',
    `Hit ratios over the run: edge ${(ratios.edge * 100).toFixed(1)} % of views; at the portals, pages ${(ratios.originPages * 100).toFixed(1)} % and all lookups (pages and data) ${(ratios.originCache * 100).toFixed(1)} % from their cache, L1 ${(ratios.l1 * 100).toFixed(1)} % of lookups (1 − Redis reads / lookups, from /metrics).`,
    '',
    `Newsroom: ${corrections.length} corrections (hook p50 ${hookMs[Math.floor(hookMs.length / 2)]?.toFixed(0) ?? '-'} ms, worst ${hookMs.at(-1)?.toFixed(0) ?? '-'} ms), ${newsroom.events.filter((event) => event.kind === 'takedown').length} takedowns, grey mode on and off, ${newsroom.faults.length > 0 ? `${newsroom.faults.length} faults (below)` : `Redis restarted at ${restartFrom} s`}.`,
    '',
    '## Latency by page class (run), ms',
    '',
    '| class | views | p50 | p99 | p99.9 |',
    '| --- | --- | --- | --- | --- |',
    ...classRows(runPeriod),
    '',
    '## RSS, MiB (start, middle, end)',
    '',
    '| process | start | middle | end |',
    '| --- | --- | --- | --- |',
    ...processes.map(
      (entry) => `| ${entry.name} | ${(entry.kib.start / 1024).toFixed(0)} | ${(entry.kib.middle / 1024).toFixed(0)} | ${(entry.kib.end / 1024).toFixed(0)} |`,
    ),
    '',
    ...portalMemoryRows(outcome.memory, outcome.stack.portals.length),
    ...memoryByMinuteRows(outcome.memoryByMinute, outcome.stack.portals.length),
    `![views/s and p99](${path.basename(base)}.svg)`,
    '',
    ...(ledger.stale.length > 0 ? ['## Stale views', '', ...ledger.stale.slice(0, 50).map((stale) => `- ${JSON.stringify(stale)}`), ''] : []),
    ...(outcome.diagnosed.length > 0
      ? [
          '## The first stale pages, inspected while held (`portal-cache inspect`)',
          '',
          ...outcome.diagnosed.map((diagnosis) => `- ${JSON.stringify(diagnosis)}`),
          '',
        ]
      : []),
    ...(ledger.leaks.length > 0 ? ['## Leaks', '', ...ledger.leaks.slice(0, 50).map((leak) => `- ${JSON.stringify(leak)}`), ''] : []),
    ...(outcome.errors.length > 0 ? ['## Errors (first 200)', '', ...outcome.errors.map((error) => `- ${JSON.stringify(error)}`), ''] : []),
    ...(outcome.unheld.length > 0
      ? [
          `## First views refused while the CMS was away (${runPeriod.unheld}; the first 50)`,
          '',
          'Pages no reader had been given yet, so no cache held them: 503 with Retry-After, not counted as errors.',
          '',
          ...outcome.unheld.map((view) => `- ${JSON.stringify(view)}`),
          '',
        ]
      : []),
    ...(newsroom.failures.length > 0 ? ['## Hook failures', '', ...newsroom.failures.map((failure) => `- ${failure}`), ''] : []),
  ].join('\n');
  writeFileSync(`${base}.md`, markdown);
  process.stdout.write(`${markdown}\nday: wrote ${base}.{json,md,svg}\n`);
  return targets.every((entry) => entry.met !== false) ? 0 : 1;
}

/**
 * Each portal's memory at the start, middle and end, MiB: what of its RSS the L1 holds (bounded by L1_MAX_BYTES,
 * filling as the long tail is read) and V8's heap and Buffers, so RSS growth can be told from the L1 filling.
 */
function portalMemoryRows(memory: Outcome['memory'], portals: number): string[] {
  const at = (when: Moment, index: number, figure: keyof PortalMemory) => {
    const bytes = memory[when]?.[index]?.[figure];
    return bytes === undefined ? '-' : (bytes / 1024 / 1024).toFixed(0);
  };
  const moments: Moment[] = ['start', 'middle', 'end'];
  const rows = Array.from({ length: portals }, (_, index) =>
    METRICS_FIGURES.map(({ figure, label }) => `| portal ${index + 1} | ${label} | ${moments.map((when) => at(when, index, figure)).join(' | ')} |`),
  ).flat();
  return [
    '## Portal memory from /metrics, MiB (start, middle, end)',
    '',
    '| process | figure | start | middle | end |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
}

/** Each portal's memory at the end of each minute, MiB: RSS, then what the portal says it holds. */
function memoryByMinuteRows(byMinute: Outcome['memoryByMinute'], portals: number): string[] {
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const cell = (memory: PortalMemory | undefined) => (memory ? [memory.rss, ...METRICS_FIGURES.map(({ figure }) => memory[figure])].map(mib).join(' / ') : '-');
  const portalNames = Array.from({ length: portals }, (_, index) => `portal ${index + 1}`);
  return [
    `## Portal memory by minute, MiB (RSS / ${METRICS_FIGURES.map(({ label }) => label).join(' / ')})`,
    '',
    `| minute | ${portalNames.join(' | ')} |`,
    `| --- | ${portalNames.map(() => '---').join(' | ')} |`,
    ...byMinute.map((memories, minute) => `| ${minute + 1} | ${portalNames.map((_, index) => cell(memories?.[index])).join(' | ')} |`),
    '',
  ];
}

/** After a fault, how long its alerts may take to fire (the rules' windows) and its effects to pass. */
const FAULT_AFTERMATH_S = 90;
/** After a fault, the seconds in which readers still feel it (a dip, slow views). */
const FAULT_FELT_S = 30;

interface FaultRow {
  fault: string;
  /** Seconds from the start of the run: when it began, and when the part was back. */
  from: number;
  to: number;
  views: number;
  errors: number;
  /** Pages nobody had been given yet, refused while the CMS was away (not errors: first-views.ts). */
  unheld: number;
  stale: number;
  p99: number;
  /** The longest run of seconds below half the run's median views/s, from the fault to FAULT_FELT_S after it. */
  dip: number;
  expected: readonly string[];
  allowed: readonly string[];
  fired: string[];
  /** Seconds from the start: alerts first firing from the fault's start until then are the fault's. */
  alertsUntil: number;
}

/** The fault's row; its aftermath ends where the next fault begins. */
function faultRow(window: FaultWindow, next: FaultWindow | undefined, outcome: Outcome, medianViews: number): FaultRow {
  const from = Math.floor((window.from - outcome.startedAt) / 1000);
  const to = Math.ceil((window.to - outcome.startedAt) / 1000);
  const nextFrom = next ? Math.floor((next.from - outcome.startedAt) / 1000) : Number.POSITIVE_INFINITY;
  const feltUntil = Math.min(to + FAULT_FELT_S, nextFrom);
  const felt = outcome.seconds.filter((second) => second.t >= from && second.t < feltUntil);
  const period = periodOf(window.fault.name, felt);
  const row: FaultRow = {
    fault: window.fault.name,
    from,
    to,
    views: period.all.views,
    errors: period.errors,
    unheld: period.unheld,
    stale: period.stale,
    p99: period.all.p99,
    dip: longestDip(outcome.seconds, medianViews / 2, from, feltUntil).seconds,
    expected: window.fault.alerts,
    allowed: window.fault.allowed,
    fired: [],
    alertsUntil: Math.min(to + FAULT_AFTERMATH_S, nextFrom),
  };
  row.fired = [...new Set(outcome.alerts.filter((alert) => alertBelongs(alert, row, outcome.wallStart)).map((alert) => alert.alertname))];
  return row;
}

/** An alert that began firing while the fault lasted or within FAULT_AFTERMATH_S of its end. */
function alertBelongs(alert: FiredAlert, row: FaultRow, wallStart: number): boolean {
  const firstFiring = alert.from - wallStart / 1000;
  return firstFiring >= row.from && firstFiring <= row.alertsUntil;
}

function faultTargets(rows: readonly FaultRow[], quietAlerts: readonly FiredAlert[]): Array<{ target: string; met: boolean; figure: string }> {
  const missedAlerts = rows.flatMap((row) => row.expected.filter((name) => !row.fired.includes(name)).map((name) => `${row.fault}: ${name}`));
  const noise = rows.flatMap((row) =>
    row.fired.filter((name) => !row.expected.includes(name) && !row.allowed.includes(name)).map((name) => `${row.fault}: ${name}`),
  );
  const dips = rows.filter((row) => row.dip > DIP_MOST_S);
  return [
    {
      target: 'every fault’s alert fires',
      met: missedAlerts.length === 0,
      figure:
        missedAlerts.length === 0 ? `${rows.reduce((total, row) => total + row.expected.length, 0)} expected, all fired` : `missed: ${missedAlerts.join('; ')}`,
    },
    {
      target: 'no alert a fault does not explain',
      met: noise.length === 0,
      figure: noise.length === 0 ? 'none' : noise.join('; '),
    },
    {
      target: 'no alert in the quiet minutes',
      met: quietAlerts.length === 0,
      figure: quietAlerts.length === 0 ? 'none' : quietAlerts.map((alert) => `${alert.alertname} ${JSON.stringify(alert.labels)}`).join('; '),
    },
    {
      target: `views/s through every fault never < ½ median for > ${DIP_MOST_S} s`,
      met: dips.length === 0,
      figure: dips.length === 0 ? `longest ${Math.max(0, ...rows.map((row) => row.dip))} s` : dips.map((row) => `${row.fault}: ${row.dip} s`).join('; '),
    },
  ];
}

function faultReportRows(rows: readonly FaultRow[], quietAlerts: readonly FiredAlert[]): string[] {
  if (rows.length === 0) return [];
  return [
    `## Faults (each from its start to ${FAULT_FELT_S} s after it; alerts up to ${FAULT_AFTERMATH_S} s after it)`,
    '',
    '| fault | at s | lasted s | views | errors | first views refused | stale views | p99 ms | longest dip s | alerts expected (may fire) | alerts fired |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.fault} | ${row.from} | ${row.to - row.from} | ${row.views} | ${row.errors} | ${row.unheld} | ${row.stale} | ${row.p99.toFixed(0)} | ${row.dip} | ${row.expected.join(', ') || 'none'}${row.allowed.length > 0 ? ` (${row.allowed.join(', ')})` : ''} | ${row.fired.join(', ') || 'none'} |`,
    ),
    '',
    `Alerts in the quiet minutes: ${quietAlerts.length === 0 ? 'none' : quietAlerts.map((alert) => `${alert.alertname} ${JSON.stringify(alert.labels)}`).join('; ')}.`,
    '',
  ];
}

void runStoppingChildren('day', main);
