/**
 * Reaching running portals over HTTP (stats, watch, instances): which ones there are (the instances announced in
 * Redis, server/cache/instances.ts, plus any named with --portal) and their answers, each request bounded by
 * --timeout. One portal that is dead or hung never aborts or holds the command: it is named as failed and the
 * others are reported (exit code 5, output.ts).
 */
import { announcedInstances, INTERNAL_TOKEN_HEADER, type Announcement } from '../../server/cache/instances';
import type { RedisClient } from '../../server/redis/client';
import { describeRedirect, fetchWithCredential } from '../../server/platform/credentialed-fetch';
import { parsePrometheus, type Sample } from '../../server/cache/stats';
import { errorText } from './output';

/** A portal to ask: found in Redis (with what it announced) or named with --portal. */
export interface PortalTarget {
  url: string;
  source: 'announced' | 'portal';
  announced: Omit<Announcement, 'url'> | null;
}

/** A portal that gave no usable answer, and why (refused, no answer within the timeout, HTTP 500…). */
export interface FailedPortal {
  url: string;
  error: string;
}

export interface Scrape {
  /** Each answering portal's samples, by its URL. */
  byPortal: Map<string, Sample[]>;
  failed: FailedPortal[];
}

/** The announced instances of the prefix, then every --portal not among them. */
export async function portalTargets(client: RedisClient | null, prefix: string, portals: readonly string[]): Promise<PortalTarget[]> {
  const announced = client ? await announcedInstances(client, prefix) : [];
  const found: PortalTarget[] = announced.map(({ url, ...rest }) => ({ url, source: 'announced', announced: rest }));
  for (const url of portals) if (!found.some((target) => target.url === url)) found.push({ url, source: 'portal', announced: null });
  return found;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * GET with a deadline covering the whole answer (headers and body): a server that accepts and never answers, or
 * stops half-way, ends in an error naming the wait. INTERNAL_TOKEN (environment only, never an argument `ps`
 * shows) is sent so instances on other machines answer /_internal; a redirect is an error, never followed, so the
 * token reaches the named portal only.
 */
export async function httpGet(url: string, timeoutSeconds: number): Promise<HttpAnswer> {
  const token = process.env.INTERNAL_TOKEN;
  try {
    const { redirect, response } = await fetchWithCredential(new URL(url), {
      headers: token ? { [INTERNAL_TOKEN_HEADER]: token } : {},
      signal: AbortSignal.timeout(timeoutSeconds * 1000),
    });
    if (redirect !== null) throw new Error(describeRedirect(redirect));
    return { status: response.status, text: await response.text() };
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw new Error(`no answer within ${timeoutSeconds} s`);
    throw new Error(errorText(error));
  }
}

/** The gauge every portal's /metrics has (server/platform/metrics.ts), always 1. */
const PORTAL_MARK = 'portal_build_info';

/** /metrics of each portal, side by side. */
export async function scrape(portals: readonly string[], timeoutSeconds: number): Promise<Scrape> {
  const answers = await Promise.all(
    portals.map(async (portal): Promise<{ url: string; samples: Sample[] } | FailedPortal> => {
      const url = new URL('/metrics', portal).href;
      try {
        const answer = await httpGet(url, timeoutSeconds);
        if (answer.status !== 200) return { url: portal, error: `${url} answered HTTP ${answer.status}` };
        const samples = parsePrometheus(answer.text);
        // A 200 from something else (another service on that port, a proxy's page) is not an instance with no
        // traffic: counted, it would make a dead portal look idle and the ratios look complete.
        if (!samples.some((sample) => sample.name === PORTAL_MARK)) return { url: portal, error: `${url}: not a portal's /metrics (no ${PORTAL_MARK})` };
        return { url: portal, samples };
      } catch (error) {
        return { url: portal, error: `${url}: ${errorText(error)}` };
      }
    }),
  );
  const byPortal = new Map<string, Sample[]>();
  const failed: FailedPortal[] = [];
  for (const answer of answers) {
    if ('samples' in answer) byPortal.set(answer.url, answer.samples);
    else failed.push(answer);
  }
  return { byPortal, failed };
}

/** The samples of the portals in both scrapes (one that joined or answered only now has no window yet). */
export function windowed(after: Scrape, before: Scrape): { after: Sample[]; before: Sample[] } {
  const urls = [...after.byPortal.keys()].filter((url) => before.byPortal.has(url));
  return { after: urls.flatMap((url) => after.byPortal.get(url)!), before: urls.flatMap((url) => before.byPortal.get(url)!) };
}

export function allSamples(scraped: Scrape): Sample[] {
  return [...scraped.byPortal.values()].flat();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The promise's outcome, or an error saying so once `seconds` have passed without one. */
export async function within<T>(promise: Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
