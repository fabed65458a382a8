/**
 * The figures `npm run lighthouse` keeps from each Lighthouse report, their median over runs, and the table it
 * prints against the targets (Performance, Total Blocking Time, Accessibility, Best Practices, SEO, and the JS
 * the article page loads), with Largest Contentful Paint beside TBT.
 */
export type FormFactor = 'mobile' | 'desktop';

export interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** Total Blocking Time, ms. */
  tbtMs: number;
  /** Largest Contentful Paint, ms (with TBT, what a Performance score under target is made of on these pages). */
  lcpMs: number;
  /** Script bytes transferred (compressed as sent), KiB. */
  jsKiB: number;
  /** Image bytes transferred, KiB. */
  imageKiB: number;
  /** 1 when "properly size images" and "serve images in modern formats" both pass (or have nothing to judge), else 0. */
  imagesPass: number;
}

export interface Targets {
  performance: Record<FormFactor, number>;
  tbtMs: Record<FormFactor, number>;
  /** Accessibility, Best Practices and SEO. */
  otherScores: number;
  /** JS of the article page, KiB gzipped. */
  articleJsKiB: number;
}

export const TARGETS: Targets = {
  performance: { mobile: 90, desktop: 98 },
  tbtMs: { mobile: 200, desktop: 50 },
  otherScores: 100,
  articleJsKiB: 60,
};

interface ReportLike {
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { score?: number | null; numericValue?: number; details?: { items?: Array<Record<string, unknown>> } } | undefined>;
}

function score(report: ReportLike, category: string): number {
  return Math.round((report.categories[category]?.score ?? 0) * 100);
}

/** The figures of one Lighthouse JSON report (lhr). */
export function figuresOf(report: ReportLike): RunFigures {
  const items = report.audits['resource-summary']?.details?.items ?? [];
  const scripts = items.find((item) => item.resourceType === 'script');
  const images = items.find((item) => item.resourceType === 'image');
  const passes = (id: string): boolean => {
    const audited = report.audits[id]?.score;
    return audited === null || audited === undefined || audited >= 0.9;
  };
  return {
    performance: score(report, 'performance'),
    accessibility: score(report, 'accessibility'),
    bestPractices: score(report, 'best-practices'),
    seo: score(report, 'seo'),
    tbtMs: Math.round(report.audits['total-blocking-time']?.numericValue ?? 0),
    lcpMs: Math.round(report.audits['largest-contentful-paint']?.numericValue ?? 0),
    jsKiB: Number(scripts?.transferSize ?? 0) / 1024,
    imageKiB: Number(images?.transferSize ?? 0) / 1024,
    imagesPass: passes('uses-responsive-images') && passes('modern-image-formats') ? 1 : 0,
  };
}

/** A node as a Lighthouse detail table names it. */
interface NodeLike {
  type?: unknown;
  selector?: unknown;
  snippet?: unknown;
}

/**
 * The element Lighthouse took as the Largest Contentful Paint (`largest-contentful-paint-element`), as its selector
 * and opening tag: what an LCP over target is to be looked for in. 'unknown' when the report names none.
 */
export function lcpElementOf(report: ReportLike): string {
  const tables = (report.audits['largest-contentful-paint-element']?.details?.items ?? []) as Array<{ items?: Array<{ node?: NodeLike }> }>;
  const node = tables.flatMap((table) => table.items ?? []).find((row) => row.node?.type === 'node')?.node;
  if (!node) return 'unknown';
  return `${String(node.selector ?? '')} ${String(node.snippet ?? '')}`.trim();
}

/** Lighthouse's runtime errors that come and go on a loaded Chromium (a trace or protocol hiccup, not the page). */
const TRANSIENT_LIGHTHOUSE_ERRORS = new Set([
  'NO_NAVSTART',
  'NO_FCP',
  'NO_LCP',
  'NO_TRACING_STARTED',
  'NO_SCREENSHOTS',
  'PROTOCOL_TIMEOUT',
  'PAGE_HUNG',
  'CRI_TIMEOUT',
]);

/**
 * Whether a failed run is one of Lighthouse's own transient failures ("Runtime error encountered: … (NO_NAVSTART)"),
 * worth running again; anything else (a page answering with an error, a browser that will not start) is not.
 */
export function isLighthouseRuntimeError(message: string): boolean {
  const code = /Runtime error encountered:[^\n]*\(([A-Z_]+)\)/.exec(message)?.[1];
  return code !== undefined && TRANSIENT_LIGHTHOUSE_ERRORS.has(code);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Each figure's median over the runs (taken figure by figure, as Lighthouse's own guidance for variance says). */
export function medianFigures(runs: readonly RunFigures[]): RunFigures {
  const of = (key: keyof RunFigures) => median(runs.map((run) => run[key]));
  return {
    performance: of('performance'),
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
    seo: of('seo'),
    tbtMs: of('tbtMs'),
    lcpMs: of('lcpMs'),
    jsKiB: of('jsKiB'),
    imageKiB: of('imageKiB'),
    // Every run must pass: a median of 0s and 1s would hide one that did not.
    imagesPass: Math.min(...runs.map((run) => run.imagesPass)),
  };
}

export interface Row {
  page: string;
  form: FormFactor;
  figures: RunFigures;
  /** Targets this row misses, in words; empty when it meets them all. */
  missed: string[];
}

/** The targets a page's median figures miss. `article` marks the page the JS budget applies to. */
export function missedTargets(figures: RunFigures, form: FormFactor, article: boolean, targets: Targets = TARGETS): string[] {
  const missed: string[] = [];
  if (figures.performance < targets.performance[form]) missed.push(`Performance < ${targets.performance[form]}`);
  if (figures.tbtMs > targets.tbtMs[form]) missed.push(`TBT > ${targets.tbtMs[form]} ms`);
  if (figures.accessibility < targets.otherScores) missed.push(`A11y < ${targets.otherScores}`);
  if (figures.bestPractices < targets.otherScores) missed.push(`BP < ${targets.otherScores}`);
  if (figures.seo < targets.otherScores) missed.push(`SEO < ${targets.otherScores}`);
  if (article && figures.jsKiB > targets.articleJsKiB) missed.push(`JS > ${targets.articleJsKiB} KiB`);
  if (figures.imagesPass < 1) missed.push('images not sized or not in a modern format');
  return missed;
}

export function formatTable(rows: readonly Row[], targets: Targets = TARGETS): string {
  const header = '| page | form | Performance | TBT ms | LCP ms | A11y | BP | SEO | JS KiB | images KiB | targets missed |';
  const rule = '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const lines = rows.map(
    ({ page, form, figures, missed }) =>
      `| ${page} | ${form} | ${figures.performance} | ${figures.tbtMs} | ${figures.lcpMs} | ${figures.accessibility} | ${figures.bestPractices} | ${figures.seo} | ${figures.jsKiB.toFixed(1)} | ${figures.imageKiB.toFixed(1)} | ${missed.length > 0 ? missed.join(', ') : 'none'} |`,
  );
  const legend =
    `targets: Performance ≥ ${targets.performance.mobile} mobile / ≥ ${targets.performance.desktop} desktop; ` +
    `TBT ≤ ${targets.tbtMs.mobile} ms mobile / ≤ ${targets.tbtMs.desktop} ms desktop; A11y, BP, SEO ${targets.otherScores}; ` +
    `JS on the article page ≤ ${targets.articleJsKiB} KiB gzipped; "properly size images" and "modern image formats" pass`;
  return [header, rule, ...lines, '', legend].join('\n');
}
