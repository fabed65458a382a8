/**
 * Issue 29, item 4: every kind of page is reachable by clicking. From home, following only the links a page's
 * HTML holds (what a reader can click), breadth first, a main and a regional site each reach every page kind of
 * the route table within three clicks: home is click 0, its links click 1, and so on.
 */
import request from 'supertest';
import { routeTable, findRoute } from '../../shared/routes';
import { MAIN_DOMAIN, REGIONAL_SITES } from '../../shared/sites';
import { startTestPortal, type TestPortal } from '../support/portal';

const CLICKS = 3;
/** Pages fetched per route at each depth: enough to see each kind's links, few enough to stay quick. */
const PER_ROUTE_AND_DEPTH = 2;

/** Same-site links and GET form targets (the search box: type, then submit) of a page's HTML, made site-relative. */
function linksOf(html: string, origin: string): string[] {
  return [...html.matchAll(/(?:href|action)="([^"]+)"/g)]
    .map((match) => (match[1] ?? '').replace(/&amp;/g, '&'))
    .map((link) => (link.startsWith(origin) ? link.slice(origin.length) || '/' : link))
    .filter((link) => link.startsWith('/') && !link.startsWith('//'));
}

function pageOf(path: string): string | null {
  const match = findRoute(path.split(/[?#]/)[0] ?? '');
  return match.kind === 'page' ? match.route.page : null;
}

/**
 * The page kinds reached within `CLICKS` clicks of home, each with the first path that reached it, and every path
 * reached (a fixed page like /contribute shares its kind with /about, so it is checked by path).
 */
async function reachable(base: string, host: string): Promise<{ kinds: Map<string, string>; paths: Set<string> }> {
  const origin = `https://${host}`;
  const reached = new Map<string, string>([['home', '/']]);
  const seen = new Set<string>(['/']);
  let frontier = ['/'];
  for (let click = 1; click <= CLICKS; click += 1) {
    const next: string[] = [];
    const fetchedPerRoute = new Map<string, number>();
    for (const path of frontier) {
      const page = pageOf(path);
      if (page === null) continue;
      if ((fetchedPerRoute.get(page) ?? 0) >= PER_ROUTE_AND_DEPTH) continue;
      fetchedPerRoute.set(page, (fetchedPerRoute.get(page) ?? 0) + 1);
      const answer = await request(base).get(path).set('Host', host);
      if (answer.status !== 200 || !String(answer.headers['content-type']).startsWith('text/html')) continue;
      for (const link of linksOf(answer.text, origin)) {
        const linked = pageOf(link);
        if (linked === null || seen.has(link)) continue;
        seen.add(link);
        if (!reached.has(linked)) reached.set(linked, link);
        next.push(link);
      }
    }
    frontier = next;
  }
  return { kinds: reached, paths: new Set([...seen].map((path) => path.split(/[?#]/)[0] ?? '')) };
}

describe('every page kind is reachable by clicking', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => {
    await t.close();
  });

  const everyKind = [...new Set(routeTable().flatMap((route) => (route.page === undefined ? [] : [route.page])))].sort();
  // Pages without parameters; '/home' is home's second spelling, reached as '/'.
  const fixedPaths = routeTable()
    .filter((route) => route.page !== undefined && !route.path.includes(':') && route.path !== '/home')
    .map((route) => route.path);

  it.each([
    ['the main site', MAIN_DOMAIN],
    ['a regional site', REGIONAL_SITES[0]!.domain],
  ])('%s reaches every page kind within three clicks of home', async (_label, host) => {
    const { kinds, paths } = await reachable(t.url, host);
    expect(everyKind.filter((kind) => !kinds.has(kind))).toEqual([]);
    expect(fixedPaths.filter((path) => !paths.has(path))).toEqual([]);
  });

  it('links the licence and contribute pages from the footer of every full and small footer, as the spec’s entries', async () => {
    for (const path of ['/', '/about', '/contribute']) {
      const html = (await request(t.url).get(path).set('Host', MAIN_DOMAIN)).text;
      const footer = html.slice(html.indexOf('<footer'));
      expect({ path, licence: footer.includes('href="/license"') }).toEqual({ path, licence: true });
      if (path !== '/contribute') expect({ path, contribute: footer.includes('href="/contribute"') }).toEqual({ path, contribute: true });
    }
  });
});
