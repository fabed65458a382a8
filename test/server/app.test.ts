/** The portal over real HTTP against the reference content API: pages, statuses, streaming, CSP, sites. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { HOME_CATID, TEXT } from '../../shared/constants';
import { STATE_SCRIPT_ID } from '../../shared/app-state';
import { REGIONAL_SITES, MAIN_SITE, homeCatidOf } from '../../shared/sites';
import { escapeHtml } from '../../server/platform/html';
import { routeTable } from '../../shared/routes';
import { CLIENT_DIST } from '../../server/render/assets';
import { startTestPortal, type TestPortal } from '../support/portal';
import { arrivalOf, timedGet } from '../support/http';
import { articleList, firstHomeArticle, homeCategories } from '../support/upstream-data';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

function stateOf(html: string): { page: { status: number; data: unknown }; site: { id: number } } {
  const match = new RegExp(`<script type="application/json" id="${STATE_SCRIPT_ID}"[^>]*>(.*?)</script>`).exec(html);
  if (!match?.[1]) throw new Error('no state script in the document');
  return JSON.parse(match[1]);
}

function nonceOf(csp: string | undefined): string {
  const match = /'nonce-([^']+)'/.exec(csp ?? '');
  if (!match?.[1]) throw new Error(`no nonce in CSP ${csp}`);
  return match[1];
}

/** A portal with empty caches on the same upstream, for tests that change what the upstream answers. */
async function withFreshPortal<T>(base: TestPortal, use: (url: string) => Promise<T>): Promise<T> {
  const fresh = await startTestPortal({ upstream: base.upstream });
  try {
    return await use(fresh.url);
  } finally {
    await fresh.close();
  }
}

describe('portal pages', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());
  afterEach(() => t.upstream.api.control.reset());

  it('renders home with the home categories and their latest articles', async () => {
    const categories = await homeCategories(t.upstream.url, HOME_CATID);
    const first = categories[0]!;
    const list = await articleList(t.upstream.url, first.catid);
    const res = await request(t.url).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html; charset=utf-8/);
    expect(res.text).toContain(escapeHtml(first.catname));
    const shown = list.lists[0]!;
    expect(res.text).toContain(escapeHtml(shown.list_title || shown.title));
    expect(res.text).toContain(`href="/detail/${shown.catid}/${shown.id}"`);
    expect(res.text).toContain(`<title>${escapeHtml(MAIN_SITE.seo_title)}</title>`);
  });

  it('serves /home as home', async () => {
    const res = await request(t.url).get('/home');
    expect(res.status).toBe(200);
    expect(stateOf(res.text).page.status).toBe(200);
    expect(res.text).toContain('home-grid');
  });

  it('renders an article with its title, source and sanitised body', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const res = await request(t.url).get(`/detail/${raw.catid}/${raw.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<h1 class="article__title">${escapeHtml(raw.title)}</h1>`);
    expect(res.text).toContain(escapeHtml(raw.source));
    expect(res.text).toContain('class="article__body"');
    expect(res.text).toContain(`<title>${escapeHtml(raw.title)} - ${escapeHtml(MAIN_SITE.seo_title)}</title>`);
  });

  it('strips scripts and handlers from article bodies', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    t.upstream.api.control.overrideArticle(raw.id, {
      content:
        '<p onclick="steal()">正文<img src="x" onerror="alert(2)"></p><script>alert(3)</script><iframe src="javascript:alert(4)"></iframe><a href="javascript:alert(5)">链接</a>',
    });
    const res = await withFreshPortal(t, (url) => request(url).get(`/detail/${raw.catid}/${raw.id}`));
    const body = /<div class="article__body">(.*?)<\/div>/s.exec(res.text)?.[1] ?? '';
    expect(body).toContain('正文');
    expect(body).not.toMatch(/onclick|onerror|<script|<iframe|javascript:/i);
  });

  it.each(['/detail/12/abc', '/V1/-1', '/topic/1e3', '/no/such/page/here', '/detail/2727/2147483647'])(
    'answers %s with the 404 page, status decided before the first byte',
    async (path) => {
      const res = await timedGet(t.url + path);
      expect(res.status).toBe(404);
      expect(res.body).toContain(TEXT.notFound);
      expect(res.body).toMatch(/<a href="\/"[^>]*>返回首页<\/a>/);
      expect(res.headers['cache-control']).toBe('private, no-store');
    },
  );

  it('redirects every bare path of the route table (a route without a name) to /, those of optional ids too', async () => {
    // Each bare route with its params given (a menu and sub-category, an article's catid), and its optional ones left out.
    const sample: Record<string, string> = { menu: 'xinwen', sub: 'guonei', catid: '2728' };
    const given = (path: string) => path.replace(/\/:([\w-]+)\??/g, (_match, name: string) => `/${sample[name] ?? '1'}`);
    const bare = [
      ...new Set(
        routeTable()
          .filter((route) => route.page === undefined)
          .flatMap((route) => [given(route.path), given(route.path.replace(/\/:[\w-]+\?/g, ''))]),
      ),
    ];
    expect(bare).toEqual(
      expect.arrayContaining(['/V1', '/detail', '/detail/2728', '/detailReading', '/detailReading/2728', '/tagDetail', '/xinwen/guonei/V1', '/xinwen/V2']),
    );
    const answers = await Promise.all(
      bare.map(async (path) => {
        const res = await request(t.url).get(path);
        return [path, res.status, res.headers.location];
      }),
    );
    expect(answers).toEqual(bare.map((path) => [path, 302, '/']));
  });

  it('streams the header and menu before a slow block', async () => {
    t.upstream.api.control.setLatency([{ path: '/list/3281/', ms: 1500 }]);
    const fresh = await startTestPortal({ upstream: t.upstream });
    try {
      const res = await timedGet(`${fresh.url}/`, { 'user-agent': BROWSER });
      expect(res.status).toBe(200);
      const menuAt = arrivalOf(res, '</nav>');
      const skeletonAt = arrivalOf(res, 'hot-news__list--loading');
      const hotNewsAt = arrivalOf(res, 'hot-news__rank--5');
      expect(menuAt).toBeGreaterThanOrEqual(0);
      // The skeleton is part of the shell: it arrives with the menu, not with the data.
      expect(skeletonAt).toBeGreaterThanOrEqual(0);
      expect(skeletonAt - menuAt).toBeLessThan(200);
      expect(hotNewsAt).toBeGreaterThanOrEqual(1400);
      expect(hotNewsAt - menuAt).toBeGreaterThan(1000);
      expect(res.body.trimEnd().endsWith('</body></html>')).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('flushes gzip per chunk, so compression does not hold the shell back', async () => {
    t.upstream.api.control.setLatency([{ path: '/list/3281/', ms: 1500 }]);
    const fresh = await startTestPortal({ upstream: t.upstream });
    try {
      const res = await timedGet(`${fresh.url}/`, { 'user-agent': BROWSER, 'accept-encoding': 'gzip' });
      expect(res.headers['content-encoding']).toBe('gzip');
      const menuAt = arrivalOf(res, '</nav>');
      expect(menuAt).toBeGreaterThanOrEqual(0);
      expect(arrivalOf(res, 'hot-news__rank--5') - menuAt).toBeGreaterThan(1000);
    } finally {
      await fresh.close();
    }
  });

  it('tags every response with a request id and logs it as one JSON line', async () => {
    const res = await request(t.url).get('/about').set('X-Request-Id', 'trace-12345678');
    expect(res.headers['x-request-id']).toBe('trace-12345678');
    const generated = await request(t.url).get('/healthz').set('X-Request-Id', 'bad id with spaces');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const line = t.logs.find((entry) => entry.reqId === 'trace-12345678');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/about', status: 200 });
  });

  it('logs the site, bytes sent, user agent and upstream time of each request; probes only at debug', async () => {
    const regional = REGIONAL_SITES[2]!;
    for (const [id, host] of [
      ['access-log-main', 'www.qnnews.cn'],
      ['access-log-region', regional.domain.toUpperCase()],
      ['access-log-evil', 'evil.example'],
    ] as const) {
      await request(t.url).get('/about').set('Host', host).set('User-Agent', 'AccessLogTest/1.0').set('X-Request-Id', id);
    }
    const lineOf = (id: string) => t.logs.find((entry) => entry.reqId === id);
    expect(lineOf('access-log-main')).toMatchObject({ site: 'www.qnnews.cn', ua: 'AccessLogTest/1.0' });
    expect(lineOf('access-log-region')).toMatchObject({ site: regional.domain });
    // An unknown Host is served as the main site and logged as it: the log never carries a raw Host.
    expect(lineOf('access-log-evil')).toMatchObject({ site: 'www.qnnews.cn' });
    for (const id of ['access-log-main', 'access-log-region']) {
      const line = lineOf(id)!;
      expect(line.bytes).toBeGreaterThan(1000);
      if (line.cache !== 'HIT') expect(typeof line.upstreamMs).toBe('number');
    }
    for (const probe of ['/healthz', '/readyz', '/metrics']) {
      await request(t.url)
        .get(probe)
        .set('X-Request-Id', `probe-${probe.slice(1)}-1`);
      expect(lineOf(`probe-${probe.slice(1)}-1`)).toBeUndefined();
    }
  });

  it('gives crawlers the complete document in one go', async () => {
    t.upstream.api.control.setLatency([{ path: '/list/3281/', ms: 800 }]);
    const fresh = await startTestPortal({ upstream: t.upstream });
    try {
      const res = await timedGet(`${fresh.url}/`, { 'user-agent': GOOGLEBOT });
      expect(res.status).toBe(200);
      expect(res.body).not.toContain('hot-news__list--loading');
      expect(res.body).toContain('hot-news__rank--5');
      expect(res.headAt).toBeGreaterThanOrEqual(750);
    } finally {
      await fresh.close();
    }
  });

  it('runs a streamed page by a fresh nonce on every inline script, the same page from the cache by hashes; data blocks by neither', async () => {
    // Two portals with empty caches: each streams home (MISS), then answers it from its cache (HIT).
    const visit = (url: string) => request(url).get('/').set('user-agent', BROWSER);
    const missThenHit = (url: string) => visit(url).then(async (miss) => [miss, await visit(url)] as const);
    const [[firstMiss, cached], [secondMiss]] = [await withFreshPortal(t, missThenHit), await withFreshPortal(t, missThenHit)];
    const streamed = [firstMiss, secondMiss];
    for (const res of streamed) {
      expect(res.headers['x-cache']).toBe('MISS');
      const nonce = nonceOf(res.headers['content-security-policy']);
      const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
      const dataBlocks = scripts.filter((tag) => /type="application\/(?:ld\+)?json"/.test(tag));
      const executed = scripts.filter((tag) => !dataBlocks.includes(tag));
      expect(executed.length).toBeGreaterThan(2);
      expect(dataBlocks.length).toBeGreaterThan(1);
      // First, always: what a stored page's sealing looks for (server/cache/stored-page.ts).
      for (const tag of executed) expect(tag).toMatch(new RegExp(`^<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}"`));
      for (const tag of dataBlocks) expect(tag).not.toContain('nonce=');
      expect(res.headers['content-security-policy']).toContain("'strict-dynamic'");
    }
    expect(nonceOf(firstMiss.headers['content-security-policy'])).not.toBe(nonceOf(secondMiss.headers['content-security-policy']));
    expect(cached.headers['x-cache']).toBe('HIT');
    expect(cached.text).not.toContain('nonce=');
    expect(cached.headers['content-security-policy']).toMatch(/script-src (?:'sha256-[^']+' )+'strict-dynamic'/);
  });

  it('keeps a hostile title inert in the markup and the hydration state', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const hostile = '</script><script>alert(1)</script>\u2028<!--';
    t.upstream.api.control.overrideArticle(raw.id, { title: hostile, list_title: '' });
    const res = await withFreshPortal(t, (url) => request(url).get(`/detail/${raw.catid}/${raw.id}`));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toContain(escapeHtml('</script><script>alert(1)</script>'));
    const state = stateOf(res.text) as unknown as { page: { data: { article: { fullTitle: string } } } };
    expect(state.page.data.article.fullTitle).toBe(hostile);
  });

  it('shows the regional site chosen by Host, and the main site for unknown hosts', async () => {
    const site = REGIONAL_SITES.find((candidate) => candidate.catid > 0)!;
    const regional = await request(t.url).get('/').set('Host', site.domain);
    expect(regional.status).toBe(200);
    expect(regional.text).toContain(`<title>${escapeHtml(site.seo_title)}</title>`);
    expect(regional.text).toContain(`<span class="logo__site">${site.name}</span>`);
    expect(stateOf(regional.text).site.id).toBe(site.id);
    const [regionalCategory] = await homeCategories(t.upstream.url, homeCatidOf(site));
    expect(regional.text).toContain(escapeHtml(regionalCategory!.catname));

    const unknown = await request(t.url).get('/').set('Host', 'evil.example');
    expect(stateOf(unknown.text).site.id).toBe(MAIN_SITE.id);
    expect(unknown.text).toContain(`<link rel="canonical" href="https://${MAIN_SITE.domain}/">`);
  });

  it('answers client navigations with page state as JSON', async () => {
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    const ok = await request(t.url)
      .get('/_data/page')
      .query({ path: `/detail/${raw.catid}/${raw.id}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ kind: 'page', page: { page: 'detail', status: 200 } });
    expect(ok.body.page.data.article.id).toBe(raw.id);
    const missing = await request(t.url).get('/_data/page').query({ path: '/nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'page', page: { page: 'not-found' } });
    const redirect = await request(t.url).get('/_data/page').query({ path: '/V2' });
    expect(redirect.body).toEqual({ kind: 'redirect', location: '/' });
    for (const bad of ['//evil.example/x', 'https://evil.example/', '\\\\evil', '']) {
      const res = await request(t.url).get('/_data/page').query({ path: bad });
      expect([bad, res.status]).toEqual([bad, 400]);
    }
  });

  it('serves hashed assets as immutable and answers unknown assets with 404', async () => {
    const home = await request(t.url).get('/');
    const script = /<script(?: nonce="[^"]*")? type="module" async>import "([^"]+)"<\/script>/.exec(home.text)?.[1];
    expect(script).toMatch(/^\/assets\/entry-[A-Z0-9]+\.js$/);
    const asset = await request(t.url).get(script!);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await request(t.url).get('/assets/nope.js')).status).toBe(404);
    // What is preloaded is exactly the entry and its static imports (none in this build: the pages and esbuild's
    // helpers are in the entry, docs/build.md), each one served; never a chunk loaded on demand.
    const manifest = JSON.parse(readFileSync(path.join(CLIENT_DIST, 'manifest.json'), 'utf8')) as { entry: { js: string[] } };
    const preloads = [...home.text.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]!);
    expect(preloads).toEqual(manifest.entry.js);
    expect(preloads.filter((file) => /Page-|carousel|hls/.test(file))).toEqual([]);
    for (const file of preloads) expect((await request(t.url).get(file)).status).toBe(200);
  });

  it('answers other methods with 405 and never leaks a stack trace', async () => {
    const res = await request(t.url).post('/').send({});
    expect(res.status).toBe(405);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('upstream outage', () => {
  it('shows a 503 error page with Retry-After when the article cannot be fetched', async () => {
    const t = await startTestPortal({ env: { UPSTREAM_TIMEOUT_MS: '300' } });
    try {
      const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
      t.upstream.api.control.setFailures([{ path: '/show/', mode: 'hang' }]);
      const res = await request(t.url).get(`/detail/${raw.catid}/${raw.id}`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.text).toContain('服务暂时不可用');
      expect(res.headers['x-cache']).toBe('MISS');
      // An error page is never stored as the page.
      t.upstream.api.control.reset();
      expect((await request(t.url).get(`/detail/${raw.catid}/${raw.id}`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('still renders home (without the failed block) when a list call fails, and does not cache it', async () => {
    const t = await startTestPortal();
    try {
      t.upstream.api.control.setFailures([{ path: '/list/3281/', mode: 'http500' }]);
      const first = await request(t.url).get('/').set('user-agent', GOOGLEBOT);
      expect(first.status).toBe(200);
      expect(first.text).not.toContain('hot-news__rank--1');
      t.upstream.api.control.reset();
      const second = await request(t.url).get('/').set('user-agent', GOOGLEBOT);
      expect(second.headers['x-cache']).toBe('MISS');
      expect(second.text).toContain('hot-news__rank--1');
    } finally {
      await t.close();
    }
  });
});
