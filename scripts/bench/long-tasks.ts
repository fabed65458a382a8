/**
 * The main-thread long tasks a first load pays (not part of `npm test` or the bench): the built portal on its
 * embedded defaults, home, detail, reading, search and video in Debian's Chromium at a phone's viewport, each
 * task over 50 ms with what it spent its time on (script evaluation of which file, React's render, commit or
 * effects, style and layout), mapped through the source maps, and a TBT-like sum. Each task's CPU time (trace
 * `tdur`) × 4, as Lighthouse's simulated throttling scales an unthrottled trace: Chromium's live throttling pauses
 * the main thread in long periods, and CPU time is stretched less than wall time by a busy machine.
 * Env (PORTAL_MAINS, RUNS, PAGES, CPU_RATE, SCALE, DETAIL): docs/build.md "Long tasks of a load".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { DESKTOP_UA, measuredPages, startBuiltPortal, type BuiltPortal, type MeasuredPage } from './measured-pages';

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const RUNS = Number(process.env.RUNS || 3);
const CPU_RATE = Number(process.env.CPU_RATE || 1);
const SCALE = Number(process.env.SCALE || 4 / CPU_RATE);
const MAINS = (process.env.PORTAL_MAINS || path.join(ROOT, 'dist/server/main.cjs')).split(',');
const MOBILE_UA = 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
  'loading',
];
/** How long a trace runs on after hydration (unthrottled: Lighthouse's window ends 5 s of quiet after it). */
const AFTER_MS = Number(process.env.AFTER_MS || 3000);

async function pagesOf(base: string): Promise<MeasuredPage[]> {
  const all = await measuredPages(base);
  const wanted = process.env.PAGES?.split(',');
  return wanted ? all.filter((page) => wanted.includes(page.name)) : all;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> & { url?: string; functionName?: string; type?: string } };
}

async function traceOf(session: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', (message) => {
    events.push(...(message.value as unknown as TraceEvent[]));
  });
  const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: CATEGORIES } });
  await run();
  await session.send('Tracing.end');
  await complete;
  return events;
}

/** When the navigation to `url` started: its navigationStart mark, or else the first parse of its document. */
function navigationStartOf(events: TraceEvent[], url: string, thread: { pid: number; tid: number }): number {
  const start = events.find(
    (e) => e.name === 'navigationStart' && (e.args?.data as { documentLoaderURL?: string } | undefined)?.documentLoaderURL?.startsWith(url),
  );
  const parse = events.find(
    (e) =>
      e.name === 'ParseHTML' &&
      e.pid === thread.pid &&
      e.tid === thread.tid &&
      (e.args as { beginData?: { url?: string } } | undefined)?.beginData?.url?.startsWith(url),
  );
  const found = start ?? parse;
  if (!found) throw new Error(`no navigation to ${url} in the trace`);
  return found.ts;
}

/** The main thread of the renderer that loaded `url` (not the about:blank one the tab started in). */
function mainThread(events: TraceEvent[], url: string): { pid: number; tid: number } {
  const start = events.find(
    (e) => e.name === 'navigationStart' && (e.args?.data as { documentLoaderURL?: string } | undefined)?.documentLoaderURL?.startsWith(url),
  );
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const parse = events.find(
    (e) => e.name === 'ParseHTML' && main.has(`${e.pid}:${e.tid}`) && (e.args as { beginData?: { url?: string } } | undefined)?.beginData?.url?.startsWith(url),
  );
  const found = start ?? parse;
  if (!found) throw new Error(`no navigation to ${url} in the trace`);
  return { pid: found.pid, tid: found.tid };
}

// ——— CPU samples, mapped to sources ———

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface Sample {
  ts: number;
  stack: string[];
}

const sourceMaps = new Map<string, TraceMap | null>();

function sourceMapOf(url: string, distOf: (url: string) => string | null): TraceMap | null {
  if (sourceMaps.has(url)) return sourceMaps.get(url)!;
  const file = distOf(url);
  let map: TraceMap | null = null;
  try {
    if (file) map = new TraceMap(readFileSync(`${file}.map`, 'utf8'));
  } catch {
    map = null;
  }
  sourceMaps.set(url, map);
  return map;
}

/** "react-dom-client:commitRoot", "shared/ui/blocks/Header.tsx:Header": the source and the name at a function's start. */
function frameLabel(frame: ProfileNode['callFrame'], distOf: (url: string) => string | null): string {
  if (!frame.url) return frame.functionName || '(program)';
  const map = sourceMapOf(frame.url, distOf);
  if (!map) return `${path.basename(frame.url)}:${frame.functionName || '(anonymous)'}`;
  let position: ReturnType<typeof originalPositionFor>;
  try {
    position = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  } catch {
    // A position past the map's lines (a frame of another build of the same file name): unmapped.
    return `${path.basename(frame.url)}:${frame.functionName || '(anonymous)'}`;
  }
  if (!position.source) return `${path.basename(frame.url)}:${frame.functionName || '(anonymous)'}`;
  const source = position.source.replace(/^(\.\.\/)+/, '').replace(/^node_modules\/([^/]+)\/.*\/([^/]+?)(\.production)?(\.min)?\.js$/, '$1/$2');
  const index = map.sources.indexOf(position.source);
  const text = index >= 0 ? map.sourcesContent?.[index]?.split('\n')[position.line! - 1] : undefined;
  const named = position.name ?? text?.slice(position.column!).match(/^(?:async\s+)?(?:function\s*\*?\s*)?([A-Za-z_$][\w$]*)/)?.[1];
  const fallback = text?.match(/function\s+([A-Za-z_$][\w$]*)/)?.[1] ?? text?.match(/(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/)?.[1];
  return `${source}:${named && named !== 'function' ? named : (fallback ?? `L${position.line}`)}`;
}

function samplesOf(events: TraceEvent[], thread: { pid: number; tid: number }, distOf: (url: string) => string | null): Sample[] {
  const profiles = events.filter((e) => e.name === 'Profile' && e.pid === thread.pid);
  const nodes = new Map<string, ProfileNode>();
  const samples: Array<Sample & { node: string }> = [];
  // Each profile (one per isolate or restart) counts its samples' times from its own start.
  for (const profile of profiles) {
    let time = (profile.args?.data?.startTime as number | undefined) ?? profile.ts;
    for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.id === profile.id && e.pid === profile.pid)) {
      const data = chunk.args!.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] };
      for (const node of data.cpuProfile?.nodes ?? []) nodes.set(`${profile.id}:${node.id}`, node);
      (data.cpuProfile?.samples ?? []).forEach((id, i) => {
        time += data.timeDeltas?.[i] ?? 0;
        samples.push({ ts: time, stack: [], node: `${profile.id}:${id}` });
      });
    }
  }
  const labels = new Map<string, string[]>();
  // Iterative: a deep stack (React's recursion) would overflow a recursive walk.
  const stackOf = (key: string): string[] => {
    if (labels.has(key)) return labels.get(key)!;
    const profile = key.slice(0, key.lastIndexOf(':'));
    const stack: string[] = [];
    for (let node = nodes.get(key); node; node = node.parent ? nodes.get(`${profile}:${node.parent}`) : undefined) {
      stack.push(frameLabel(node.callFrame, distOf));
    }
    labels.set(key, stack);
    return stack;
  };
  for (const sample of samples) sample.stack = stackOf(sample.node);
  return samples.sort((a, b) => a.ts - b.ts);
}

/** What one CPU sample was doing, innermost meaningful frame first. */
function sampleKind(stack: string[]): string {
  const top = stack[0] ?? '';
  if (top === '(garbage collector)') return 'GC';
  if (top === '(program)' || top === '(idle)' || top === '(root)') return 'native (style, layout, parse, …)';
  const react = (name: string) => stack.some((frame) => frame.endsWith(`:${name}`));
  const component = stack.find((frame) => /^(client|shared)\//.test(frame));
  let phase = 'script';
  if (react('flushPassiveEffects') || react('flushPassiveEffectsImpl') || react('commitPassiveMountOnFiber')) phase = 'React passive effects';
  else if (react('commitRoot') || react('commitRootImpl') || react('flushLayoutEffects') || react('commitLayoutEffects')) phase = 'React commit';
  else if (react('performUnitOfWork') || react('workLoopConcurrentByScheduler') || react('workLoopSync') || react('renderRootSync')) phase = 'React render';
  else if (stack.some((frame) => frame.includes('(module)') || frame.endsWith(':L1'))) phase = 'module evaluation';
  return component ? `${phase} · ${component}` : phase;
}

// ——— long tasks ———

interface LongTask {
  start: number;
  duration: number;
  kinds: Array<[string, number]>;
  top: Array<[string, number]>;
  /** Functions by self time (the sample's innermost frame). */
  self: Array<[string, number]>;
}

const TOP_LEVEL = new Set([
  'EvaluateScript',
  'v8.compile',
  'v8.compileModule',
  'v8.evaluateModule',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'ParseHTML',
  'Layout',
  'UpdateLayoutTree',
  'PrePaint',
  'Paint',
  'Layerize',
  'MajorGC',
  'MinorGC',
  'V8.GC_SCAVENGER',
  'ParseAuthorStyleSheet',
  'RunMicrotasks',
  'v8.run',
]);

function eventLabel(event: TraceEvent, base: string): string {
  const data = event.args?.data;
  const url = (data?.url as string | undefined)?.replace(base, '') ?? '';
  const short = url.replace(/^\/assets\//, '');
  if (event.name === 'EventDispatch') return `EventDispatch ${data?.type ?? ''}`;
  if (event.name === 'FunctionCall') return `FunctionCall ${short}`;
  if (event.name.startsWith('v8.') || event.name === 'EvaluateScript') return `${event.name} ${short}`;
  return event.name;
}

/**
 * An event's time on the thread's CPU: the machine is shared, and wall time would count the time other processes
 * held the core (a task's wall time on a loaded 2-core box is several times its CPU time).
 */
const cpu = (event: TraceEvent) => event.tdur ?? event.dur ?? 0;

function longTasks(events: TraceEvent[], base: string, distOf: (url: string) => string | null, from: number): LongTask[] {
  const thread = mainThread(events, base);
  const own = events.filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === 'X' && e.ts >= from);
  const samples = samplesOf(events, thread, distOf);
  const tasks = own.filter((e) => e.name === 'RunTask' && cpu(e) * SCALE > 50_000);
  return tasks.map((task) => {
    const end = task.ts + task.dur!;
    const children = own.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && TOP_LEVEL.has(e.name));
    // Only the outermost of nested events counts, so nothing is counted twice.
    const outer = children.filter((e) => !children.some((p) => p !== e && p.ts <= e.ts && p.ts + p.dur! >= e.ts + e.dur! && (p.ts < e.ts || p.dur! > e.dur!)));
    const top = new Map<string, number>();
    for (const e of outer) top.set(eventLabel(e, base), (top.get(eventLabel(e, base)) ?? 0) + (cpu(e) * SCALE) / 1000);
    const kinds = new Map<string, number>();
    const inTask = samples.filter((s) => s.ts >= task.ts && s.ts <= end);
    const perSample = (cpu(task) * SCALE) / 1000 / Math.max(1, inTask.length);
    const self = new Map<string, number>();
    for (const sample of inTask) {
      kinds.set(sampleKind(sample.stack), (kinds.get(sampleKind(sample.stack)) ?? 0) + perSample);
      const frame = sample.stack[0] ?? '(none)';
      self.set(frame, (self.get(frame) ?? 0) + perSample);
    }
    const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= 3);
    return { start: task.ts, duration: (cpu(task) * SCALE) / 1000, kinds: sorted(kinds), top: sorted(top), self: sorted(self) };
  });
}

// ——— one load ———

interface Load {
  tasks: LongTask[];
  /** Σ (task − 50 ms) after first contentful paint, as Lighthouse's TBT. */
  tbt: number;
  /** Σ (task − 50 ms) over the whole load. */
  all: number;
  fcp: number;
  problems: string[];
}

async function measure(browser: Browser, portal: BuiltPortal, page: MeasuredPage, dist: string): Promise<Load> {
  const context = await browser.newContext({
    viewport: page.desktopAgent ? { width: 1350, height: 940 } : { width: 412, height: 823 },
    deviceScaleFactor: page.desktopAgent ? 1 : 1.75,
    isMobile: !page.desktopAgent,
    hasTouch: !page.desktopAgent,
    userAgent: page.desktopAgent ? DESKTOP_UA : MOBILE_UA,
  });
  const tab = await context.newPage();
  const problems: string[] = [];
  tab.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  const session = await context.newCDPSession(tab);
  if (CPU_RATE !== 1) await session.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
  const distOf = (url: string) =>
    url.startsWith(`${portal.url}/assets/`) ? path.join(dist, 'client/assets', url.slice(`${portal.url}/assets/`.length)) : null;
  const events = await traceOf(session, async () => {
    await tab.goto(portal.url + page.path, { waitUntil: 'domcontentloaded' });
    // Hydrated, then AFTER_MS more for what hydration starts (effects, lazy chunks, carousels). Plain evaluate
    // only: playwright's selector engine is a large script of its own that would show up in the trace.
    await tab.evaluate(async (afterMs) => {
      while (document.documentElement.dataset.hydrated !== 'true') await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, afterMs));
    }, AFTER_MS);
  });
  const thread = mainThread(events, portal.url);
  const navigationStart = navigationStartOf(events, portal.url, thread);
  // The page's own first paint: its renderer, after its navigation (not the blank tab's).
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === thread.pid && e.ts >= navigationStart)?.ts;
  await context.close();
  const tasks = longTasks(events, portal.url, distOf, navigationStart);
  // As Lighthouse counts it: from first contentful paint on, only a task's part after it.
  const blocking = (task: LongTask) => Math.max(0, task.duration - Math.max(0, (((fcp ?? 0) - task.start) * SCALE) / 1000) - 50);
  const tbt = tasks.reduce((sum, task) => sum + blocking(task), 0);
  for (const task of tasks) task.start = (task.start - navigationStart) / 1000;
  return { tasks, tbt, all: tasks.reduce((sum, task) => sum + task.duration - 50, 0), fcp: fcp ? (fcp - navigationStart) / 1000 : NaN, problems };
}

/** A load whose trace came back without the page's navigation (seen on a loaded machine) is measured again, once. */
async function measureOnce(browser: Browser, portal: BuiltPortal, page: MeasuredPage, dist: string): Promise<Load> {
  try {
    return await measure(browser, portal, page, dist);
  } catch (error) {
    console.log(`  (load measured again: ${error instanceof Error ? error.message : String(error)})`);
    return measure(browser, portal, page, dist);
  }
}

const fmt = (ms: number) => ms.toFixed(0).padStart(4);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function printLoad(label: string, load: Load): void {
  console.log(
    `  ${label}: ${load.tasks.length} long tasks, FCP @${load.fcp.toFixed(0)} ms, TBT-like ${load.tbt.toFixed(0)} ms after FCP, ${load.all.toFixed(0)} ms in all`,
  );
  for (const task of load.tasks) {
    console.log(`    @${fmt(task.start)} ms  ${fmt(task.duration)} ms  ${task.top.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ')}`);
    for (const [kind, ms] of task.kinds.slice(0, 6)) console.log(`                        ${fmt(ms)} ms  ${kind}`);
    if (process.env.DETAIL)
      console.log(
        `                        self: ${task.self
          .slice(0, 8)
          .map(([f, ms]) => `${f} ${ms.toFixed(0)}`)
          .join(', ')}`,
      );
  }
  for (const problem of load.problems) console.log(`    console ${problem}`);
}

async function main(): Promise<void> {
  const portals = await Promise.all(MAINS.map((main) => startBuiltPortal(main)));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const pages = await pagesOf(portals[0]!.url);
    const summary: string[] = [];
    for (const page of pages) {
      console.log(`\n${page.name} (${page.path})`);
      const loads: Load[][] = MAINS.map(() => []);
      for (let run = 0; run < RUNS; run += 1) {
        for (const [i, portal] of portals.entries()) {
          const load = await measureOnce(browser, portal, page, path.resolve(path.dirname(MAINS[i]!), '..'));
          loads[i]!.push(load);
          if (process.env.DETAIL || run === 0) printLoad(`${MAINS.length > 1 ? `portal ${i} ` : ''}run ${run + 1}`, load);
          else
            console.log(
              `  ${MAINS.length > 1 ? `portal ${i} ` : ''}run ${run + 1}: ${load.tasks.map((t) => fmt(t.duration).trim()).join(' + ')} → TBT-like ${load.tbt.toFixed(0)} ms after FCP, ${load.all.toFixed(0)} in all`,
            );
        }
      }
      for (const [i, runs] of loads.entries()) {
        summary.push(
          `${page.name.padEnd(8)} ${MAINS.length > 1 ? `portal ${i} ` : ''}TBT-like median ${fmt(median(runs.map((r) => r.tbt)))} ms (runs ${runs.map((r) => r.tbt.toFixed(0)).join('/')}), whole load ${fmt(median(runs.map((r) => r.all)))} ms, long tasks ${runs.map((r) => r.tasks.length).join('/')}, longest ${fmt(median(runs.map((r) => Math.max(0, ...r.tasks.map((t) => t.duration)))))} ms`,
        );
      }
    }
    console.log(`\n${summary.join('\n')}`);
  } finally {
    await browser.close();
    for (const portal of portals) portal.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
