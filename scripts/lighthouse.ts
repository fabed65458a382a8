/**
 * `npm run lighthouse`: builds if needed, starts the built portal on its embedded defaults, and runs the
 * `lighthouse` CLI (Debian's Chromium, headless) three times per page and form factor on home, detail, reading,
 * search and video; prints the median figures against the targets (scripts/lighthouse-table.ts). Phones are
 * redirected away from articles, so the mobile run of detail sends a desktop user agent. Env: CHROMIUM_PATH
 * (default /usr/bin/chromium), LIGHTHOUSE_RUNS (default 3). Heavy: not part of `npm test`.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { figuresOf, formatTable, medianFigures, missedTargets, type FormFactor, type Row, type RunFigures } from './lighthouse-table';

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS || 3);
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync';
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function startPortal(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/main.cjs')], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`portal exited with ${code}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as { url?: string; msg?: string };
      if (entry.url && entry.msg?.startsWith('portal listening')) resolve({ url: entry.url, stop: () => child.kill('SIGTERM') });
    });
  });
}

async function firstLink(url: string, pattern: RegExp): Promise<string> {
  const html = await (await fetch(url, { headers: { 'user-agent': DESKTOP_UA } })).text();
  const found = pattern.exec(html)?.[0];
  if (!found) throw new Error(`no link matching ${pattern} on ${url}`);
  return found;
}

/** The pages measured, found on the running portal (ids come from the reference API's seeded dataset). */
async function pagesOf(base: string): Promise<Array<{ name: string; path: string }>> {
  const detail = await firstLink(`${base}/`, /\/detail\/\d+\/\d+/);
  const video = await firstLink(`${base}/shike/2839`, /\/video\/\d+\/\d+/);
  const keyword = Buffer.from('青年', 'utf8').toString('base64url');
  return [
    { name: 'home', path: '/' },
    { name: 'detail', path: detail },
    { name: 'reading', path: detail.replace('/detail/', '/detailReading/') },
    { name: 'search', path: `/search/${keyword}/2` },
    { name: 'video', path: video },
  ];
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

async function main(): Promise<void> {
  const portal = await startPortal();
  try {
    const rows: Row[] = [];
    for (const page of await pagesOf(portal.url)) {
      for (const form of ['mobile', 'desktop'] as const) {
        const runs: RunFigures[] = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await runLighthouse(portal.url + page.path, form, form === 'mobile' && page.name === 'detail'));
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
