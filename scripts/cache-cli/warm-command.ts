/**
 * `warm`: request every URL of a sitemap (or a sitemap index: its sub-sitemaps' pages) or a URL list through a
 * portal, so readers find them cached. Each URL is asked for with its own host, so the right site's page is stored.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { CliError, EXIT, print, type Globals } from './output';
import { siteOfHost } from './sites';

interface Answer {
  url: string;
  status: number;
  cache: string;
  ms: number;
  /** Why no answer came (refused, timeout…); '' when the portal answered. */
  error: string;
  body?: string;
}

export async function warmCommand(globals: Globals, source: string, options: { portal: string; concurrency: number }): Promise<void> {
  const urls = await pageUrls(readSource(source), options.portal, globals.timeout);
  const results: Answer[] = [];
  let next = 0;
  const started = performance.now();
  const progress = (): void => {
    if (globals.json || !process.stderr.isTTY) return;
    const width = 30;
    const filled = Math.round((results.length / Math.max(1, urls.length)) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${results.length}/${urls.length}`);
  };
  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const url = urls[next++]!;
      results.push(await get(options.portal, url, false, globals.timeout));
      progress();
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, urls.length) }, worker));
  if (!globals.json && process.stderr.isTTY) process.stderr.write('\n');
  const count = (filter: (r: Answer) => boolean) => results.filter(filter).length;
  const byCache = Object.fromEntries(['MISS', 'HIT', 'STALE', 'PASS', '-'].map((state) => [state, count((r) => r.cache === state)]));
  const failures = results.filter((r) => r.status !== 200).map(({ url, status, error }) => ({ url, status, error }));
  const summary = {
    portal: options.portal,
    urls: urls.length,
    ok: count((r) => r.status === 200),
    failed: failures.length,
    byCache,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    failures,
  };
  const unreachable = failures.length === urls.length && urls.length > 0 && failures.every((f) => f.status === 0);
  print(globals, 'warm', summary, () =>
    [
      unreachable ? `cannot reach the portal ${options.portal}: ${failures[0]!.error}` : null,
      `warmed ${summary.urls} URLs in ${summary.seconds} s: ${summary.ok} ok, ${summary.failed} failed; ${Object.entries(byCache)
        .filter(([, n]) => n > 0)
        .map(([state, n]) => `${state === '-' ? 'no answer' : state} ${n}`)
        .join(', ')}`,
      ...failures.slice(0, 50).map((f) => `  ${f.status === 0 ? `no answer (${f.error})` : f.status} ${f.url}`),
      failures.length > 50 ? `  … and ${failures.length - 50} more (--json lists them all)` : null,
    ]
      .filter((line) => line !== null)
      .join('\n'),
  );
  if (summary.failed > 0) process.exitCode = EXIT.failed;
}

function readSource(source: string): string {
  try {
    return readFileSync(source === '-' ? 0 : source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(error);
    throw new CliError(`cannot read the URL list "${source}": ${why}`, EXIT.usage);
  }
}

const LOC = /<loc>\s*([^<\s]+)\s*<\/loc>/g;

/** The page URLs of a sitemap, of a sitemap index (each sub-sitemap fetched from the portal), or of a plain list. */
async function pageUrls(text: string, portal: string, timeoutSeconds: number): Promise<string[]> {
  const locs = [...text.matchAll(LOC)].map((match) => unescapeXml(match[1]!));
  if (/<sitemapindex[\s>]/.test(text)) {
    const pages: string[] = [];
    for (const sitemap of locs) {
      const answer = await get(portal, sitemap, true, timeoutSeconds);
      if (answer.status !== 200)
        throw new CliError(
          `sub-sitemap ${sitemap}: ${answer.status === 0 ? `no answer from ${portal} (${answer.error})` : `HTTP ${answer.status}`}`,
          EXIT.failed,
        );
      pages.push(...[...(answer.body ?? '').matchAll(LOC)].map((match) => unescapeXml(match[1]!)));
    }
    return checked(pages);
  }
  return checked(
    locs.length > 0
      ? locs
      : text
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line && !line.startsWith('#')),
  );
}

/**
 * Every entry a path or a URL of one of the portal's sites: a URL of another host would be asked for with that
 * Host, which the portal serves as the main site, so the main site would be warmed and the run reported as done.
 */
function checked(urls: string[]): string[] {
  for (const url of urls) {
    if (!/^(https?:\/\/[^/\s]+)?\/\S*$/.test(url)) throw new CliError(`not a URL or path in the list: ${url}`, EXIT.usage);
    if (url.startsWith('/')) continue;
    const { host } = new URL(url);
    siteOfHost(host, `warm: ${url}`);
  }
  return urls;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'");
}

/**
 * GETs one URL from the portal with the URL's host as Host (node:http, because fetch() may not set Host), within
 * `timeoutSeconds` for the whole answer, head and body: a socket's idle timeout never fires on a portal that
 * sends a byte a second, and warm waited on one for ever.
 */
function get(portal: string, url: string, keepBody: boolean, timeoutSeconds: number): Promise<Answer> {
  const target = new URL(url, 'http://portal.invalid');
  const base = new URL(portal);
  const started = performance.now();
  const request = base.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (status: number, cache: string, error: string) => {
      clearTimeout(deadline);
      resolve({
        url,
        status,
        cache,
        error,
        ms: Math.round(performance.now() - started),
        ...(keepBody ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
      });
    };
    const req = request(
      new URL(`${target.pathname}${target.search}`, base),
      { headers: target.host === 'portal.invalid' ? {} : { host: target.host } },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          if (keepBody) chunks.push(chunk);
        });
        res.on('end', () => done(res.statusCode ?? 0, String(res.headers['x-cache'] ?? '-'), ''));
        res.on('error', (error) => done(0, '-', error.message));
      },
    );
    // Said first (the promise keeps the first word), then the request goes: its own error would only say "aborted".
    const deadline = setTimeout(() => {
      done(0, '-', `no answer within ${timeoutSeconds} s`);
      req.destroy();
    }, timeoutSeconds * 1000);
    req.on('error', (error: Error) => done(0, '-', error.message));
  });
}
