/**
 * `npm run lighthouse`: builds if needed, starts the built portal on its embedded defaults, and runs the
 * `lighthouse` CLI (Debian's Chromium, headless) three times per page and form factor on home, detail, reading,
 * search and video; prints the median figures against the targets (scripts/lighthouse-table.ts). Phones are
 * redirected away from articles, so the mobile run of detail sends a desktop user agent. Env: CHROMIUM_PATH
 * (default /usr/bin/chromium), LIGHTHOUSE_RUNS (default 3). Heavy: not part of `npm test`.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { DESKTOP_UA, measuredPages, startBuiltPortal } from './bench/measured-pages';
import { figuresOf, formatTable, isLighthouseRuntimeError, medianFigures, missedTargets, type FormFactor, type Row, type RunFigures } from './lighthouse-table';

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS || 3);
/** Runs of one measure that may end in Lighthouse's own trace failure before the measure gives up. */
const ATTEMPTS = 3;
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync';
function runLighthouse(url: string, form: FormFactor, desktopUserAgent: boolean): Promise<RunFigures> {
  const args = [
    path.join(ROOT, 'node_modules/lighthouse/cli/index.js'),
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    '--only-categories=performance,accessibility,best-practices,seo',
    `--chrome-flags=${CHROME_FLAGS}`,
    ...(form === 'desktop' ? ['--preset=desktop'] : []),
    ...(desktopUserAgent ? [`--emulated-user-agent=${DESKTOP_UA}`] : []),
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`lighthouse ${url} (${form}): ${stderr || error.message}`));
      resolve(figuresOf(JSON.parse(stdout)));
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

async function main(): Promise<void> {
  const portal = await startBuiltPortal(path.join(ROOT, 'dist/server/main.cjs'));
  try {
    const rows: Row[] = [];
    for (const page of await measuredPages(portal.url)) {
      for (const form of ['mobile', 'desktop'] as const) {
        const runs: RunFigures[] = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await measure(portal.url + page.path, form, form === 'mobile' && page.desktopAgent));
        const figures = medianFigures(runs);
        rows.push({ page: page.name, form, figures, missed: missedTargets(figures, form, page.name === 'detail') });
        console.error(`${page.name} ${form}: performance ${runs.map((r) => r.performance).join('/')}, TBT ${runs.map((r) => r.tbtMs).join('/')} ms`);
      }
    }
    console.log(formatTable(rows));
  } finally {
    portal.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
