/**
 * Every built page, loaded in a real browser: it hydrates with no console error or warning and no failed
 * request; the video page plays its HLS stream.
 */
import type { Page } from 'playwright-core';
import { encodeKeyword } from '../../shared/search-keyword';
import { REGIONAL_SITES } from '../../shared/sites';
import type { RawLive, RawPagedList, RawShikeCategoryItems, RawSpecialReport } from '../../server/upstream/wire';
import { browserPortalSuite, launchBrowser, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';
import { firstHomeArticle, upstreamData } from '../support/upstream-data';

describeWithBrowser()('every page in a browser', () => {
  const suite = browserPortalSuite();
  const routes: string[] = [];

  beforeAll(async () => {
    const raw = await firstHomeArticle(suite.portal.upstream.url, 2727);
    const video = (
      await upstreamData<RawShikeCategoryItems>(suite.portal.upstream.url, '/api/video_album/shike_video_category_item?id=2839&page=1&page_size=1')
    ).list[0]!;
    const live = (await upstreamData<RawPagedList<RawLive>>(suite.portal.upstream.url, '/api/live/list?show_type=1&page=1&page_size=1')).list[0]!;
    const report = (await upstreamData<RawSpecialReport[]>(suite.portal.upstream.url, '/api/special/list_by_catid?catid=0'))[0]!;
    routes.push(
      '/',
      `/detail/${raw.catid}/${raw.id}`,
      `/V1/${raw.catid}`,
      `/V2/${raw.catid}`,
      '/topic/2751',
      '/about',
      '/contribute',
      '/license',
      '/siteMap',
      '/specialColumn',
      '/personalCenter',
      `/search/${encodeKeyword(raw.title.slice(0, 2))}/2`,
      '/headlineNews',
      `/newsTrack/${report.id}`,
      '/hd',
      '/poster',
      '/shike/2839',
      `/video/${video.catid}/${video.id}`,
      '/videoAlbum/601',
      `/liveStreamDetail/${live.id}`,
      '/readNewspapers/2761',
      '/electronic',
      '/no-such-page',
    );
  });

  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const { page, problems } = await watchedPage(suite.browser);
    // Hydration needs the document and its scripts, not every picture: 'load' would wait for them all.
    await page.goto(suite.portal.url + path, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('html[data-hydrated="true"]', { timeout: 30_000 });
    return { page, problems };
  }

  it('hydrates each page with no console error, warning or failed request', async () => {
    const report: string[] = [];
    for (const path of routes) {
      const { page, problems } = await open(path);
      // The 404 document itself is reported by the suite.browser as a failed load; that is the point of that page.
      const expected = (problem: string) => path === '/no-such-page' && (problem.includes('status of 404') || problem.endsWith(path));
      for (const problem of problems.filter((item) => !expected(item))) report.push(`${path}: ${problem}`);
      await page.close();
    }
    expect(report).toEqual([]);
  }, 300_000);

  // Chromium now plays HLS natively and other browsers go through hls.js; either way the stream must play.
  it('plays the video page stream', async () => {
    const path = routes.find((route) => route.startsWith('/video/'))!;
    const { page, problems } = await open(path);
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, undefined, { timeout: 30_000 });
    const state = await page.evaluate(() => {
      const video = document.querySelector('video')!;
      return { duration: video.duration, source: video.currentSrc };
    });
    expect(state.duration).toBeGreaterThan(1);
    expect(state.source).toMatch(/^blob:|\/index\.m3u8$/);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('hydrates the pages of a regional site, reached by its own domain', async () => {
    const site = REGIONAL_SITES[0]!;
    // The regional domain resolves to loopback inside this suite.browser only: the Host header says the site. Sites
    // are served over https in production; this plain-http origin is marked secure so the suite.browser treats it so.
    const port = new URL(suite.portal.url).port;
    const regional = await launchBrowser([
      `--host-resolver-rules=MAP ${site.domain} 127.0.0.1`,
      `--unsafely-treat-insecure-origin-as-secure=http://${site.domain}:${port}`,
    ]);
    try {
      const report: string[] = [];
      for (const path of routes.filter((route) => route !== '/no-such-page').slice(0, 12)) {
        const { page, problems } = await watchedPage(regional);
        await page.goto(`http://${site.domain}:${port}${path}`, { waitUntil: 'domcontentloaded' });
        await page.waitForSelector('html[data-hydrated="true"]', { timeout: 30_000 });
        if (path === '/') expect(await page.textContent('.logo__site')).toBe(site.name);
        for (const problem of problems) report.push(`${path}: ${problem}`);
        await page.close();
      }
      expect(report).toEqual([]);
    } finally {
      await regional.close();
    }
  }, 300_000);
});
