/**
 * The HTML of two bundles for the same data (issue 36, item 7; not part of the bench, docs/benchmark.md): PORTAL_A
 * and PORTAL_B (a dist/server/main.cjs each) on one reference API, each with its own prefix. One page of every route
 * reached within two clicks of home and the site map, and a missing page, on the main and a regional site, asked
 * anonymously as a desktop and as a phone reader, of A then of B, compared byte for byte with the build id set
 * aside. Inline scripts are compared apart from the markup (the client code may change, the page may not). Prints
 * what differs; exits 1 if any markup does.
 */
import { startReferenceApi } from '../reference-api/server';
import { createRedisClient } from '../../server/redis/client';
import { parseRedisTarget } from '../../server/platform/redis-target';
import { findRoute } from '../../shared/routes';
import { ALL_SITES } from '../../shared/sites';
import { bundlesToCompare, startPortalUnderTest, stopPortalUnderTest, type PortalUnderTest } from './render-portals';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const STARTS = ['/', '/siteMap'];

interface Answer {
  status: number;
  location: string | null;
  html: string;
}

async function ask(portal: PortalUnderTest, host: string, path: string, agent: string): Promise<Answer> {
  const res = await fetch(portal.url + path, { headers: { host, 'user-agent': agent }, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

function linksOf(html: string): string[] {
  return [...html.matchAll(/href="(\/[^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
}

/** The route id a link leads to, or null for anything that is not a page. */
function routeOf(link: string): string | null {
  const match = findRoute(new URL(link, 'http://portal.test').pathname);
  return match.kind === 'page' ? match.route.id : null;
}

/** One path per route id: the first link to it on the start pages, then on the pages those lead to. */
async function pagesOfEveryRoute(portal: PortalUnderTest, host: string): Promise<string[]> {
  const byRoute = new Map<string, string>();
  const note = (links: readonly string[]) => {
    for (const link of links) {
      const id = routeOf(link);
      if (id !== null && !byRoute.has(id)) byRoute.set(id, link);
    }
  };
  for (const start of STARTS) note(linksOf((await ask(portal, host, start, DESKTOP)).html));
  for (const page of [...byRoute.values()]) note(linksOf((await ask(portal, host, page, DESKTOP)).html));
  return [...STARTS, ...byRoute.values(), '/no-such-page/at-all'];
}

/**
 * Set aside: the build id and the assets named by the build's hashes; a render's nonce (a miss is streamed with
 * one, a held page has none); the second the state was made (`now`) and what a `<time>` says of its `dateTime`
 * relative to it (the two renders may straddle a minute).
 */
function withoutBuild(html: string): string {
  return html
    .replace(/"buildId":"[^"]*"/g, '"buildId":"-"')
    .replace(/(\/assets\/[\w.-]+?)-[A-Za-z0-9]{8,}(\.\w+)/g, '$1$2')
    .replace(/ nonce="[^"]*"/g, '')
    .replace(/"now":\d+/g, '"now":0')
    .replace(/(<time [^>]*>)[^<]*(<\/time>)/g, '$1-$2');
}

/** The markup with every inline script's body out, and the bodies apart. */
function split(html: string): { markup: string; scripts: string[] } {
  const scripts: string[] = [];
  const markup = withoutBuild(html).replace(/(<script[^>]*>)([\s\S]*?)(<\/script>)/g, (_all, open: string, body: string, close: string) => {
    scripts.push(body);
    return `${open}#${scripts.length}${close}`;
  });
  return { markup, scripts };
}

/** Where two texts first part, with some context of each. */
function firstDifference(a: string, b: string): string {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  const from = Math.max(0, at - 80);
  return `at ${at}:\n  A …${a.slice(from, at + 120)}\n  B …${b.slice(from, at + 120)}`;
}

async function main(): Promise<void> {
  const { mainA, mainB } = bundlesToCompare();
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const client = createRedisClient(parseRedisTarget(REDIS_URL), { role: 'cli' });
  const portals: PortalUnderTest[] = [];
  let compared = 0;
  const markupDiffers: string[] = [];
  const scriptsDiffer = new Map<string, { count: number; first: string }>();
  try {
    portals.push(await startPortalUnderTest(mainA, { upstreamUrl: upstream.url, redisUrl: REDIS_URL }, client));
    portals.push(await startPortalUnderTest(mainB, { upstreamUrl: upstream.url, redisUrl: REDIS_URL }, client));
    const [a, b] = portals as [PortalUnderTest, PortalUnderTest];
    for (const site of [ALL_SITES[0]!, ALL_SITES[1]!]) {
      const paths = await pagesOfEveryRoute(a, site.domain);
      for (const agent of [DESKTOP, PHONE]) {
        for (const path of paths) {
          const [left, right] = [await ask(a, site.domain, path, agent), await ask(b, site.domain, path, agent)];
          const name = `${site.domain}${path} (${agent === PHONE ? 'phone' : 'desktop'})`;
          compared += 1;
          if (left.status !== right.status || left.location !== right.location) {
            markupDiffers.push(`${name}: ${left.status} ${left.location ?? ''} / ${right.status} ${right.location ?? ''}`);
            continue;
          }
          const [one, other] = [split(left.html), split(right.html)];
          if (one.markup !== other.markup) markupDiffers.push(`${name} ${firstDifference(one.markup, other.markup)}`);
          one.scripts.forEach((body, index) => {
            if (body === other.scripts[index]) return;
            const opening = /^\s*.{0,40}/.exec(body)?.[0] ?? '';
            const seen = scriptsDiffer.get(opening);
            scriptsDiffer.set(opening, { count: (seen?.count ?? 0) + 1, first: seen?.first ?? `${name} ${firstDifference(body, other.scripts[index] ?? '')}` });
          });
        }
      }
    }
  } finally {
    for (const portal of portals) await stopPortalUnderTest(portal, client);
    client.disconnect();
    await upstream.close();
  }
  console.log(`${compared} answers compared; markup differs on ${markupDiffers.length}`);
  for (const line of markupDiffers) console.log(`- ${line}`);
  for (const [opening, { count, first }] of scriptsDiffer)
    console.log(`inline script differs on ${count} answers: ${JSON.stringify(opening)}…, first ${first}`);
  process.exitCode = markupDiffers.length === 0 ? 0 : 1;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
