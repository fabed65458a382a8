/**
 * The day's figures: per second (views, errors, edge hits, p99), per minute and for the run (views/s, p50/p99/p99.9
 * by page class, edge hit ratio, origin CPU per 1,000 views, CMS calls/s), the targets, and the report's three
 * files: JSON (everything), Markdown (the tables) and an SVG chart of views/s and p99 over time.
 */
import { PAGE_CLASSES, type PageClass } from './traffic';

export interface Second {
  /** Seconds from the start of the run. */
  t: number;
  views: number;
  errors: number;
  /** Pages no cache held, refused while the CMS was away: not errors (first-views.ts). */
  unheld: number;
  edgeHits: number;
  stale: number;
  leaks: number;
  /** The portals' CPU time (all of them) in this second, µs. */
  originCpuMicros: number;
  cmsCalls: number;
  /** Latencies of the views that ended in this second, ms. */
  latencies: number[];
  byClass: Partial<Record<PageClass, number[]>>;
}

export interface Percentiles {
  views: number;
  p50: number;
  p99: number;
  p999: number;
}

export interface Period {
  label: string;
  seconds: number;
  viewsPerSecond: number;
  errors: number;
  unheld: number;
  edgeHitRatio: number;
  originCpuMsPer1000Views: number;
  cmsCallsPerSecond: number;
  stale: number;
  leaks: number;
  all: Percentiles;
  byClass: Partial<Record<PageClass, Percentiles>>;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function percentilesOf(values: number[]): Percentiles {
  const sorted = [...values].sort((left, right) => left - right);
  return { views: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), p999: percentile(sorted, 99.9) };
}

export function periodOf(label: string, seconds: readonly Second[]): Period {
  const sum = (pick: (second: Second) => number) => seconds.reduce((total, second) => total + pick(second), 0);
  const views = sum((second) => second.views);
  const span = Math.max(1, seconds.length);
  const byClass: Partial<Record<PageClass, Percentiles>> = {};
  for (const cls of PAGE_CLASSES) {
    const values = seconds.flatMap((second) => second.byClass[cls] ?? []);
    if (values.length > 0) byClass[cls] = percentilesOf(values);
  }
  return {
    label,
    seconds: seconds.length,
    viewsPerSecond: views / span,
    errors: sum((second) => second.errors),
    unheld: sum((second) => second.unheld),
    edgeHitRatio: views === 0 ? 0 : sum((second) => second.edgeHits) / views,
    originCpuMsPer1000Views: views === 0 ? 0 : sum((second) => second.originCpuMicros) / 1000 / (views / 1000),
    cmsCallsPerSecond: sum((second) => second.cmsCalls) / span,
    stale: sum((second) => second.stale),
    leaks: sum((second) => second.leaks),
    all: percentilesOf(seconds.flatMap((second) => second.latencies)),
    byClass,
  };
}

export function minutesOf(seconds: readonly Second[]): Period[] {
  const minutes: Period[] = [];
  for (let from = 0; from < seconds.length; from += 60) minutes.push(periodOf(`minute ${from / 60 + 1}`, seconds.slice(from, from + 60)));
  return minutes;
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((left, right) => left - right),
    50,
  );
}

/** The longest run of consecutive seconds within [from, to) whose views were below `floor`. */
export function longestDip(seconds: readonly Second[], floor: number, from: number, to: number): { seconds: number; at: number } {
  let longest = { seconds: 0, at: from };
  let run = 0;
  for (const second of seconds) {
    if (second.t < from || second.t >= to) continue;
    run = second.views < floor ? run + 1 : 0;
    if (run > longest.seconds) longest = { seconds: run, at: second.t - run + 1 };
  }
  return longest;
}

/** Two polylines over time: views/s (every second) and p99 (per 5 s), each on its own axis. */
export function chartSvg(seconds: readonly Second[], events: ReadonlyArray<{ at: number; label: string }>): string {
  const width = 900;
  const height = 320;
  const pad = { left: 56, right: 56, top: 24, bottom: 36 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const span = Math.max(1, seconds.length);
  const p99s: Array<{ t: number; ms: number }> = [];
  for (let from = 0; from < seconds.length; from += 5) {
    const values = seconds.slice(from, from + 5).flatMap((second) => second.latencies);
    p99s.push({
      t: from + 2.5,
      ms: percentile(
        [...values].sort((left, right) => left - right),
        99,
      ),
    });
  }
  const maxViews = Math.max(1, ...seconds.map((second) => second.views)) * 1.1;
  const maxP99 = Math.max(1, ...p99s.map((point) => point.ms)) * 1.1;
  const x = (t: number) => (pad.left + (t / span) * plotW).toFixed(1);
  const yViews = (views: number) => (pad.top + plotH - (views / maxViews) * plotH).toFixed(1);
  const yP99 = (ms: number) => (pad.top + plotH - (ms / maxP99) * plotH).toFixed(1);
  const viewsLine = seconds.map((second) => `${x(second.t + 0.5)},${yViews(second.views)}`).join(' ');
  const p99Line = p99s.map((point) => `${x(point.t)},${yP99(point.ms)}`).join(' ');
  const marks = events
    .map(
      (event) =>
        `<line x1="${x(event.at)}" x2="${x(event.at)}" y1="${pad.top}" y2="${pad.top + plotH}" stroke="#999" stroke-dasharray="3,3"/>` +
        `<text x="${x(event.at)}" y="${pad.top - 6}" font-size="10" text-anchor="middle" fill="#666">${event.label}</text>`,
    )
    .join('');
  const minuteTicks = Array.from({ length: Math.floor(span / 60) + 1 }, (_, minute) => minute * 60)
    .map((t) => `<text x="${x(t)}" y="${height - 14}" font-size="10" text-anchor="middle">${t / 60} min</text>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="${width}" height="${height}" fill="#fff"/>
<rect x="${pad.left}" y="${pad.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#ccc"/>
${marks}${minuteTicks}
<polyline fill="none" stroke="#1f77b4" stroke-width="1.2" points="${viewsLine}"/>
<polyline fill="none" stroke="#d62728" stroke-width="1.5" points="${p99Line}"/>
<text x="${pad.left - 6}" y="${pad.top + 10}" font-size="10" text-anchor="end" fill="#1f77b4">${maxViews.toFixed(0)}</text>
<text x="${pad.left - 6}" y="${pad.top + plotH}" font-size="10" text-anchor="end" fill="#1f77b4">0</text>
<text x="12" y="${pad.top + plotH / 2}" font-size="11" fill="#1f77b4" transform="rotate(-90 12 ${pad.top + plotH / 2})" text-anchor="middle">views/s</text>
<text x="${width - pad.right + 6}" y="${pad.top + 10}" font-size="10" fill="#d62728">${maxP99.toFixed(0)} ms</text>
<text x="${width - pad.right + 6}" y="${pad.top + plotH}" font-size="10" fill="#d62728">0</text>
<text x="${width - 12}" y="${pad.top + plotH / 2}" font-size="11" fill="#d62728" transform="rotate(90 ${width - 12} ${pad.top + plotH / 2})" text-anchor="middle">p99 (5 s), ms</text>
</svg>
`;
}

const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));

/** A period as a Markdown table row: views/s, errors, edge hits, CPU, CMS calls, stale, leaks, p50/p99/p99.9. */
export function periodRow(period: Period): string {
  return `| ${period.label} | ${period.viewsPerSecond.toFixed(1)} | ${period.errors} | ${(period.edgeHitRatio * 100).toFixed(1)} % | ${period.originCpuMsPer1000Views.toFixed(0)} ms | ${period.cmsCallsPerSecond.toFixed(1)} | ${period.stale} | ${period.leaks} | ${ms(period.all.p50)} / ${ms(period.all.p99)} / ${ms(period.all.p999)} |`;
}

export const PERIOD_HEADER = `| period | views/s | errors | edge hits | origin CPU / 1,000 views | CMS calls/s | stale | leaks | p50 / p99 / p99.9 ms |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |`;

export function classRows(period: Period): string[] {
  return PAGE_CLASSES.flatMap((cls) => {
    const figures = period.byClass[cls];
    return figures ? [`| ${cls} | ${figures.views} | ${ms(figures.p50)} | ${ms(figures.p99)} | ${ms(figures.p999)} |`] : [];
  });
}
