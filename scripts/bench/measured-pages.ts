/**
 * What the browser measurements (`npm run lighthouse`, scripts/bench/long-tasks.ts) load: a built portal on its
 * embedded defaults, and the pages they measure, found on it (ids come from the reference API's seeded dataset):
 * home, an article, reading mode, search results, a video, a category list and a live.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';

export const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface BuiltPortal {
  url: string;
  stop(): void;
}

/** Starts `main` (a built `dist/server/main.cjs`) on a free port; resolves once it says it listens. */
export function startBuiltPortal(main: string, env: Record<string, string> = {}): Promise<BuiltPortal> {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'info', REFERENCE_API: 'in-process', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`portal ${main} exited with ${code}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as { url?: string; msg?: string };
      if (entry.url && entry.msg?.startsWith('portal listening')) resolve({ url: entry.url, stop: () => child.kill('SIGTERM') });
    });
  });
}

export interface MeasuredPage {
  name: string;
  path: string;
  /** Phones are redirected away from articles: detail is measured with a desktop user agent at a phone's size. */
  desktopAgent: boolean;
}

export async function measuredPages(base: string): Promise<MeasuredPage[]> {
  const detail = await firstLink(`${base}/`, /\/detail\/\d+\/\d+/);
  const video = await firstLink(`${base}/shike/2839`, /\/video\/\d+\/\d+/);
  const list = await firstLink(`${base}/siteMap`, /\/[a-z/]*V1\/\d+/);
  // A live as home lists it (直播): on air, else the next to start.
  const live = await firstLink(`${base}/`, /\/liveStreamDetail\/\d+/);
  const keyword = Buffer.from('青年', 'utf8').toString('base64url');
  return [
    { name: 'home', path: '/', desktopAgent: false },
    { name: 'detail', path: detail, desktopAgent: true },
    { name: 'reading', path: detail.replace('/detail/', '/detailReading/'), desktopAgent: false },
    { name: 'search', path: `/search/${keyword}/2`, desktopAgent: false },
    { name: 'video', path: video, desktopAgent: false },
    { name: 'list', path: list, desktopAgent: false },
    { name: 'live', path: live, desktopAgent: false },
  ];
}

export async function firstLink(url: string, pattern: RegExp): Promise<string> {
  const html = await (await fetch(url, { headers: { 'user-agent': DESKTOP_UA } })).text();
  const found = pattern.exec(html)?.[0];
  if (!found) throw new Error(`no link matching ${pattern} on ${url}`);
  return found;
}
