/**
 * The chrome's links, as a reader follows them: every internal link of the header, menus and footer variants
 * (main and regional site, several page kinds) answers 200 and any #anchor exists in the target; links to pages
 * of the route table (footer 产品矩阵, site-map categories, ad slides pointing inside the site, 招聘) navigate on
 * the client, without loading a new document; 订阅 works without script.
 */
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { HOME_CATID } from '../../shared/constants';
import { ALL_SITES, MAIN_DOMAIN, REGIONAL_SITES } from '../../shared/sites';
import { browserPortalSuite, gotoHydrated, launchBrowser, watchedPage, type WatchedPage } from '../support/browser';
import type { TestPortal } from '../support/portal';
import { describeWithBrowser } from '../support/requirements';
import { signInEnv, startBrowserSignInPortal, type BrowserPortal } from '../support/sign-in';
import { articleList, homeCategories } from '../support/upstream-data';

const REGIONAL = REGIONAL_SITES[4]!;
const PORTAL_DOMAINS = new Set(ALL_SITES.map((site) => site.domain));

/** Where a chrome link leads on the portal: the Host it names and the path, or null for another origin. */
function portalTarget(href: string, pageUrl: string, pageHost: string): { host: string; path: string; hash: string } | null {
  const url = new URL(href, pageUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const sameOrigin = url.origin === new URL(pageUrl).origin;
  if (!sameOrigin && !PORTAL_DOMAINS.has(url.hostname)) return null;
  return { host: sameOrigin ? pageHost : url.hostname, path: url.pathname + url.search, hash: decodeURIComponent(url.hash.slice(1)) };
}

/** A watched page with waits long enough for a machine shared with other suites (walks load many pages). */
async function patientPage(browser: Browser): Promise<WatchedPage> {
  const watched = await watchedPage(browser);
  watched.page.setDefaultTimeout(20_000);
  return watched;
}

async function chromeLinks(page: Page): Promise<string[]> {
  return page.$$eval('header a[href], footer a[href], nav a[href]', (links) => links.map((link) => link.getAttribute('href')!));
}

/** Marks the current document; a full load clears the mark, a client navigation keeps it. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
  });
}

async function stillSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
}

describeWithBrowser()('links of the chrome', () => {
  // Every menu entry well formed: a link here that answers 404 is a broken link, not an editor's mistake.
  const suite = browserPortalSuite({ menuFaults: false, env: signInEnv });
  let t: TestPortal;
  let browser: Browser;
  let pagePaths: string[];

  beforeAll(async () => {
    ({ portal: t, browser } = suite);
    const [category] = await homeCategories(t.upstream.url, HOME_CATID);
    const first = (await articleList(t.upstream.url, category!.catid)).lists[0]!;
    // Full footer (home, detail, list, gallery), small footer (contribute), site-map footer, about.
    pagePaths = ['/', `/detail/${first.catid}/${first.id}`, `/V1/${category!.catid}`, '/hd', '/contribute', '/siteMap', '/about'];
  });

  it.each([
    ['the main site', ''],
    ['a regional site', REGIONAL.domain],
  ])(
    'every internal link of header, menus and footers on %s answers 200 and its #anchor exists',
    async (_name, domain) => {
      // A regional site is reached by its own domain, resolved to loopback inside its own browser only.
      const own = domain ? await launchBrowser([`--host-resolver-rules=MAP ${domain} 127.0.0.1`]) : browser;
      const { page } = await patientPage(own);
      const origin = domain ? `http://${domain}:${new URL(t.url).port}` : t.url;
      const pageHost = domain || MAIN_DOMAIN;
      const targets = new Map<string, { host: string; path: string; hash: string }>();
      for (const path of pagePaths) {
        await gotoHydrated(page, `${origin}${path}`);
        for (const href of await chromeLinks(page)) {
          const target = portalTarget(href, page.url(), pageHost);
          if (target) targets.set(`${target.host} ${target.path}#${target.hash}`, target);
        }
      }
      expect([...targets.keys()].some((key) => key.includes('/about') && key.endsWith('#recruitment'))).toBe(true);
      expect(targets.size).toBeGreaterThan(15);
      const broken: string[] = [];
      for (const [key, target] of targets) {
        const answer = await request(t.url).get(target.path).set('Host', target.host);
        // 订阅's sign-in hands the reader over to WeChat's QR page.
        const expected = target.path.startsWith('/login/wechat?') ? 302 : 200;
        if (answer.status !== expected) broken.push(`${key}: HTTP ${answer.status}`);
        else if (target.hash && !answer.text.includes(`id="${target.hash}"`)) broken.push(`${key}: no element #${target.hash}`);
      }
      expect(broken).toEqual([]);
      await page.context().close();
      if (own !== browser) await own.close();
    },
    120_000,
  );

  it('/about has a 招聘 section that the top bar and footer lead to, and the client navigation scrolls to it', async () => {
    const { page, problems } = await patientPage(browser);
    await gotoHydrated(page, `${t.url}/siteMap`);
    await markDocument(page);
    await page.locator('.top-bar a', { hasText: '招聘' }).click();
    await page.waitForURL(/\/about#recruitment$/);
    const section = page.locator('#recruitment');
    await section.waitFor();
    expect(await section.locator('h2').textContent()).toBe('招聘信息');
    expect(await section.locator('a[href^="mailto:"]').count()).toBe(1);
    await page.waitForFunction(() => {
      const box = document.getElementById('recruitment')!.getBoundingClientRect();
      return box.top >= 0 && box.top < window.innerHeight;
    });
    expect(await stillSameDocument(page)).toBe(true);
    // Back on another page, the footer's 招聘信息 goes to the same section.
    await gotoHydrated(page, `${t.url}/hd`);
    await markDocument(page);
    await page.locator('footer a', { hasText: '招聘信息' }).click();
    await page.waitForURL(/\/about#recruitment$/);
    await section.waitFor();
    expect(await stillSameDocument(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each([
    ['the footer 产品矩阵 青年电子报', '/', 'footer .site-footer__products a:text-is("青年电子报")', '/electronic'],
    ['the footer 产品矩阵 青年视听', '/siteMap', 'footer .site-footer__products a:text-is("青年视听")', '/hd'],
    ['a site-map category', '/siteMap', '.site-map__grid a[href^="/"] >> nth=0', null],
    ['a site-map category further down', '/siteMap', '.site-map__grid a[href^="/"] >> nth=5', null],
  ])('%s navigates on the client', async (_name, from, selector, expected) => {
    const { page, problems } = await patientPage(browser);
    await gotoHydrated(page, `${t.url}${from}`);
    const link = page.locator(selector);
    const target = expected ?? (await link.getAttribute('href'))!;
    await markDocument(page);
    await link.click();
    await page.waitForURL(`${t.url}${target}`);
    expect(await stillSameDocument(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('an ad slide pointing inside the site navigates on the client; one pointing elsewhere stays a new-tab anchor', async () => {
    const { page } = await patientPage(browser);
    const [category] = await homeCategories(t.upstream.url, HOME_CATID);
    // Ads are drawn per page; walk articles until one carousel holds a slide of each kind.
    const articles = (await articleList(t.upstream.url, category!.catid, 1, 20)).lists;
    let internal: string | null = null;
    for (const article of [{ catid: 0, id: 0 }, ...articles]) {
      await gotoHydrated(page, article.id === 0 ? `${t.url}/` : `${t.url}/detail/${article.catid}/${article.id}`);
      const slides = await page.$$eval('.ad-slide a[href]', (links) =>
        links.map((link) => ({ href: link.getAttribute('href')!, target: link.getAttribute('target') })),
      );
      for (const slide of slides.filter((slide) => /^https?:/.test(slide.href) && !slide.href.includes(MAIN_DOMAIN))) {
        expect(slide.target).toBe('_blank');
      }
      internal = slides.find((slide) => slide.href.startsWith('/detail/'))?.href ?? null;
      if (internal) break;
    }
    expect(internal).not.toBeNull();
    await markDocument(page);
    // The slide may be off screen in its carousel: a DOM click is what a reader's click on it delivers.
    await page.locator(`.ad-slide a[href="${internal}"]`).first().dispatchEvent('click');
    await page.waitForURL(`${t.url}${internal}`);
    await page.waitForSelector('h1');
    expect(await stillSameDocument(page)).toBe(true);
    await page.context().close();
  });
});

describeWithBrowser()('订阅 without script', () => {
  let portal: BrowserPortal;
  let browser: Browser;
  beforeAll(async () => {
    portal = await startBrowserSignInPortal();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('is a link to the full-page WeChat sign-in that returns to the page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${portal.origin}/personalCenter`);
    const subscribe = page.locator('.top-bar a.top-bar__subscribe');
    expect(await subscribe.getAttribute('href')).toBe('/login/wechat?return=%2FpersonalCenter');
    await subscribe.click();
    await page.waitForURL((url) => url.pathname === '/__wechat/qrconnect');
    const redirect = new URL(new URL(page.url()).searchParams.get('redirect_uri')!);
    expect(redirect.searchParams.get('return')).toBe('/personalCenter');
    await context.close();
  });

  it('with script opens the dialog instead and stays on the page', async () => {
    const { page } = await patientPage(browser);
    await gotoHydrated(page, `${portal.origin}/personalCenter`);
    await markDocument(page);
    await page.locator('.top-bar__subscribe').click();
    await page.locator('dialog.login-modal').waitFor({ state: 'visible' });
    expect(new URL(page.url()).pathname).toBe('/personalCenter');
    expect(await stillSameDocument(page)).toBe(true);
    await page.context().close();
  });
});
