/**
 * One document for every reader, in Chromium (docs/security-headers.md): cached pages of every kind, from L1
 * and from Redis (L1 off), run under their hash-based CSP with no violation reported, hydrate, and load what
 * their scripts load (the bundle's chunks under 'strict-dynamic', the visit-statistics counter from its own
 * host). A page whose blocks streamed in after its shell runs React's instructions from the cache too.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { gotoHydrated, launchBrowser, watchedPage } from '../support/browser';
import { pagesOfEveryKind } from '../support/page-kinds';
import { redisPortalSuite } from '../support/redis-portal';
import { describeWithBrowser, describeWithRedis } from '../support/requirements';

/** Reports collected in the page from before its first script: what the CSP blocked. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`));
  });
}

const violationsOf = (page: Page) => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

/** Until the portal answers `path` from its cache: the first request renders and stores it. */
async function cached(base: string, path: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(`${base}${path}`);
    await response.arrayBuffer();
    if (response.headers.get('x-cache') === 'HIT') return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`${path} was not cached`);
}

describeWithBrowser()('hash-based CSP in Chromium', () => {
  // The statistics counter's own host: a real server, as a third-party counter would be.
  let counterHost: http.Server;
  let counterUrl = '';
  beforeAll(async () => {
    counterHost = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end('window.__counterRuns=(window.__counterRuns||0)+1;');
    });
    await new Promise<void>((resolve) => counterHost.listen(0, '127.0.0.1', resolve));
    counterUrl = `http://127.0.0.1:${(counterHost.address() as AddressInfo).port}/hm.js?{id}`;
  });
  afterAll(async () => new Promise((resolve) => counterHost.close(resolve)));

  describeWithRedis()('cached pages from L1 and from Redis', () => {
    const env = () => ({ VISIT_STATS_IDS: 'www.qnnews.cn=csp0001', VISIT_STATS_SCRIPT_URL: counterUrl });
    const portals = redisPortalSuite({ instances: 2, menuFaults: false, env, peer: { menuFaults: false, env: () => ({ ...env(), L1_CACHE_MAX_MB: '0' }) } });
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => browser?.close());

    // First: home is not yet cached, so it streams.
    it("a page whose blocks streamed in after its shell: React's instructions run from the cache", async () => {
      const { portal } = portals;
      // The column authors' block answers late: home's shell goes out first, the block after it, moved in place
      // by React's inline scripts.
      portal.upstream.api.control.setLatency([{ path: '/api/special_column_author/list', ms: 400 }]);
      // A browser: a crawler would get the page whole, nothing streamed.
      const response = await fetch(`${portal.url}/`, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0' } });
      const streamed = await response.text();
      portal.upstream.api.control.reset();
      expect(streamed).toMatch(/<script nonce="[^"]+">[^<]*\$R[A-Z]+\s*[=(]/);
      const { page } = await watchedPage(browser);
      await recordViolations(page);
      await cached(portal.url, '/');
      await gotoHydrated(page, `${portal.url}/`);
      expect(await violationsOf(page)).toEqual([]);
      // React moved the streamed blocks in place: no template of a pending boundary is left.
      expect(await page.evaluate(() => document.querySelectorAll('template[id^="B:"], div[hidden][id^="S:"]').length)).toBe(0);
      await page.context().close();
    }, 120_000);

    it('every page kind: served as stored, no violation, hydrated, the counter loaded', async () => {
      const paths = await pagesOfEveryKind(portals.portal.url);
      for (const [tier, base] of [
        ['L1', portals.portal.url],
        ['Redis', portals.peer.url],
      ] as const) {
        const { page, problems } = await watchedPage(browser);
        await recordViolations(page);
        for (const path of paths) {
          await cached(base, path);
          const answer = page.waitForResponse((response) => response.url() === `${base}${path}`);
          await gotoHydrated(page, `${base}${path}`);
          const headers = (await answer).headers();
          expect([tier, path, headers['x-cache'], /'nonce-/.test(headers['content-security-policy'] ?? '')]).toEqual([tier, path, 'HIT', false]);
          await page.waitForFunction(() => (window as unknown as { __counterRuns?: number }).__counterRuns === 1);
          expect([tier, path, await violationsOf(page)]).toEqual([tier, path, []]);
        }
        expect([tier, problems.filter((line) => /Content Security Policy|violates/i.test(line))]).toEqual([tier, []]);
        await page.context().close();
      }
    }, 600_000);
  });
});
