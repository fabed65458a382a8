/**
 * `npm run lighthouse`: builds if needed, starts the built portal on its embedded defaults with the reference API
 * serving pictures at one size (REFERENCE_IMAGES=one-size, as a real CMS; set it to `sized` to compare), and runs the
 * `lighthouse` CLI (Debian's Chromium, headless) three times per page and form factor on home, detail, reading,
 * search, video, a category list and a live; prints the median figures against the targets
 * (scripts/lighthouse-table.ts), with the machine's load average before and after. The mobile form is
 * Lighthouse's own (simulated slow 4G, 4× CPU slowdown, its device scale factor) on a 390×844 screen, an
 * iPhone's width (issue 29). Phones are redirected away from articles, so the mobile run of detail sends a desktop
 * user agent. Env: CHROMIUM_PATH (default /usr/bin/chromium), LIGHTHOUSE_RUNS (default 3), LIGHTHOUSE_PAGES
 * (comma-separated page names, default all), LIGHTHOUSE_FORMS (`mobile`, `desktop` or both, the default). Heavy:
 * not part of `npm test`.
 */
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { DESKTOP_UA, measuredPages, startBuiltPortal } from './bench/measured-pages';
import {
  figuresOf,
  formatTable,
  lcpElementOf,
  isLighthouseRuntimeError,
  medianFigures,
  missedTargets,
  type FormFactor,
  type Row,
  type RunFigures,
} from './lighthouse-table';

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS || 3);
/** Runs of one measure that may end in Lighthouse's own trace failure before the measure gives up. */
const ATTEMPTS = 3;
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(',').filter(Boolean);
const FORMS = (process.env.LIGHTHOUSE_FORMS?.split(',').filter(Boolean) ?? ['mobile', 'desktop']) as FormFactor[];
/** Lighthouse's mobile emulation at an iPhone's 390×844 (its default is a 412×823 Android phone). */
const MOBILE_SCREEN = [
  '--screenEmulation.mobile=true',
  '--screenEmulation.width=390',
  '--screenEmulation.height=844',
  '--screenEmulation.deviceScaleFactor=1.75',
];
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync';
interface AccessibilityReport {
  categories: { accessibility?: { auditRefs: Array<{ id: string; weight: number }> } };
  audits: Record<string, { score: number | null } | undefined>;
}

/** The accessibility audits a report failed (the ones that count towards the score), so a score under 100 says why. */
function failedAccessibilityAudits(report: AccessibilityReport): string[] {
  const refs = report.categories.accessibility?.auditRefs ?? [];
  return refs.filter((ref) => ref.weight > 0 && report.audits[ref.id]?.score === 0).map((ref) => ref.id);
}

function runLighthouse(url: string, form: FormFactor, desktopUserAgent: boolean): Promise<RunFigures> {
  const args = [
    path.join(ROOT, 'node_modules/lighthouse/cli/index.js'),
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    '--only-categories=performance,accessibility,best-practices,seo',
    `--chrome-flags=${CHROME_FLAGS}`,
    ...(form === 'desktop' ? ['--preset=desktop'] : MOBILE_SCREEN),
    ...(desktopUserAgent ? [`--emulated-user-agent=${DESKTOP_UA}`] : []),
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`lighthouse ${url} (${form}): ${stderr || error.message}`));
      const report = JSON.parse(stdout) as Parameters<typeof figuresOf>[0] & AccessibilityReport;
      const failed = failedAccessibilityAudits(report);
      if (failed.length > 0) console.error(`${url} (${form}): accessibility audits failed: ${failed.join(', ')}`);
      console.error(`${url} (${form}): LCP element ${lcpElementOf(report)}`);
      resolve(figuresOf(report));
    });
  });
}

/** One run, taken again when Lighthouse itself failed to record the page load (isLighthouseRuntimeError). */
async function measure(url: string, form: FormFactor, desktopUserAgent: boolean): Promise<RunFigures> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runLighthouse(url, form, desktopUserAgent);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt === ATTEMPTS || !isLighthouseRuntimeError(message)) throw error;
      console.error(`${message.trim().split('\n')[0]} (attempt ${attempt} of ${ATTEMPTS}; running it again)`);
    }
  }
}

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

async function main(): Promise<void> {
  // A CMS as it is (issue 51): every picture at one large size, so the figures are the portal's resizer's.
  const portal = await startBuiltPortal(path.join(ROOT, 'dist/server/main.cjs'), { REFERENCE_IMAGES: process.env.REFERENCE_IMAGES ?? 'one-size' });
  try {
    const rows: Row[] = [];
    const startLoad = load();
    console.error(`load average at the start: ${startLoad}`);
    const pages = (await measuredPages(portal.url)).filter((page) => !PAGES || PAGES.includes(page.name));
    for (const page of pages) {
      for (const form of FORMS) {
        const runs: RunFigures[] = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await measure(portal.url + page.path, form, form === 'mobile' && page.desktopAgent));
        const figures = medianFigures(runs);
        rows.push({ page: page.name, form, figures, missed: missedTargets(figures, form, page.name === 'detail') });
        console.error(
          `${page.name} ${form}: performance ${runs.map((r) => r.performance).join('/')}, TBT ${runs.map((r) => r.tbtMs).join('/')} ms, LCP ${runs.map((r) => r.lcpMs).join('/')} ms`,
        );
      }
    }
    console.log(formatTable(rows));
    console.log(`${RUNS} runs per row (medians); load average (1, 5, 15 min) at the start ${startLoad}, at the end ${load()}`);
  } finally {
    portal.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
