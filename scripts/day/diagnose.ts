/**
 * Why a stale view was stale, asked of the cache while the page is still held: the operator's own question,
 * `portal-cache --json inspect <url>` (docs/operations.md "Cache CLI"). Its answer says whether Redis holds the
 * page and since when, whether the corrected article's tag is among its tags and its index names it (so a purge of
 * the tag finds it), and which instance still holds a copy in memory (L1); then each portal is asked for the page.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/render/assets';
import type { MemoryOnly, PageReport } from '../cache-cli/inspect-command';
import type { L1Copy } from '../cache-cli/instances';

const CLI = path.join(PROJECT_ROOT, 'dist/cli/portal-cache.cjs');
const INSPECT_TIMEOUT_MS = 30_000;

/** inspect's JSON document (inspect-command.ts): the page's entries, or the copies held only in memory. */
interface Inspected {
  found: boolean;
  entries?: PageReport[];
  memoryOnly?: MemoryOnly[];
  error?: string;
}

/** What inspect said of a stale page, in the report's words. */
export interface Diagnosis {
  url: string;
  /** Each build's page entry in Redis: its age, and whether the article's tag is on it and indexed. */
  redis: Array<{ key: string; ageSeconds: number; articleTag: 'indexed' | 'not indexed' | 'missing' }>;
  /** Each instance's L1 copy: absent, or present with its age in seconds. */
  l1: string[];
  /**
   * The page's data entries that name the corrected article, with their age: one older than the correction's
   * hook is data the purge left, and a page rendered from it shows the corrected headline however young it is.
   */
  data: Array<{ key: string; ageSeconds: number }>;
  /**
   * Each portal asked for the page directly, right after inspect: what it answers from (X-Cache), its Age, whether
   * its Surrogate-Key names the article (a purge of the tag reaches that copy) and whether it still shows the
   * corrected headline. Tells a copy the purge could not find from one it found and a render made again.
   */
  portals: string[];
  error?: string;
}

function copies(l1: readonly L1Copy[]): string[] {
  return l1.map((copy) => (copy.copy === 'present' ? `present, age ${copy.ageSeconds ?? '?'} s` : copy.copy));
}

function summarise(url: string, article: number, inspected: Inspected): Diagnosis {
  const tag = `article:${article}`;
  const redis = (inspected.entries ?? []).map((entry) => ({
    key: entry.key,
    ageSeconds: entry.ageSeconds,
    articleTag: !entry.tags.includes(tag) ? ('missing' as const) : entry.unindexed.includes(tag) ? ('not indexed' as const) : ('indexed' as const),
  }));
  const l1 = [...(inspected.entries ?? []), ...(inspected.memoryOnly ?? [])].flatMap((entry) => copies(entry.l1));
  const data = (inspected.entries ?? []).flatMap((entry) =>
    entry.data.filter((datum) => datum.tags.includes(tag)).map((datum) => ({ key: datum.key, ageSeconds: datum.ageSeconds })),
  );
  return { url, redis, l1, data, portals: [], ...(inspected.found ? {} : { error: inspected.error ?? 'nothing cached' }) };
}

/** One portal's answer for the page, in the report's words. */
async function probe(portal: string, url: URL, article: number, marker: string): Promise<string> {
  try {
    const answer = await fetch(new URL(url.pathname + url.search, portal), { headers: { host: url.host }, redirect: 'manual' });
    const body = await answer.text();
    const keys = (answer.headers.get('surrogate-key') ?? '').split(' ');
    const named = keys.includes(`article:${article}`) ? 'names the article' : keys.includes('items:left-out') ? 'items left out' : 'does not name the article';
    const shows = body.includes(marker) ? 'shows the corrected headline' : 'current';
    return `${answer.status} ${answer.headers.get('x-cache') ?? '-'}, age ${answer.headers.get('age') ?? '-'}, ${named}, ${shows}`;
  } catch (error) {
    return `no answer: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export interface StaleAsked {
  /** The page's full URL: its host picks the site. */
  url: string;
  article: number;
  /** The corrected headline's marker the stale view showed. */
  marker: string;
}

/** Inspects the stale page in the run's Redis and the portals' L1, then asks each portal (`portals`, origins) for it. */
export async function diagnoseStale(redisUrl: string, prefix: string, portals: readonly string[], asked: StaleAsked): Promise<Diagnosis> {
  const inspected = await inspect(redisUrl, prefix, asked.url, asked.article);
  const url = new URL(asked.url);
  return { ...inspected, portals: await Promise.all(portals.map((portal) => probe(portal, url, asked.article, asked.marker))) };
}

function inspect(redisUrl: string, prefix: string, url: string, article: number): Promise<Diagnosis> {
  return new Promise((resolve) => {
    const args = [CLI, '--json', '--redis', redisUrl, '--prefix', prefix, 'inspect', url];
    execFile(process.execPath, args, { timeout: INSPECT_TIMEOUT_MS }, (error, stdout) => {
      try {
        resolve(summarise(url, article, JSON.parse(stdout) as Inspected));
      } catch {
        resolve({ url, redis: [], l1: [], data: [], portals: [], error: error?.message ?? 'inspect printed no JSON' });
      }
    });
  });
}
