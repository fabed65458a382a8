/**
 * Sharing inside WeChat: with WeChat's user agent the page loads the JS-SDK from WECHAT_JSSDK_URL (here the
 * reference API's simulated jweixin, which verifies wx.config against the API like WeChat does and records the
 * calls), configures it with the CMS's signature of the page address, and sets both share cards; a client
 * navigation signs and sets the new page. Outside WeChat nothing is loaded.
 */
import type { Browser, Page } from 'playwright-core';
import { jsSdkSignature, JWEIXIN_SCRIPT_PATH } from '../../scripts/reference-api/wechat-jssdk';
import { PORTAL_INFO } from '../../shared/portal-info';
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import type { ReferenceServer, TestPortal } from '../support/portal';
import { describeWithBrowser } from '../support/requirements';

/** Desktop WeChat (a phone's would be sent to the mobile site by the article redirect). */
const WECHAT_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.0.0 Safari/537.36 NetType/WIFI MicroMessenger/7.0.20.1781(0x6700143B) WindowsWechat(0x63090a13)';

interface WxCall {
  name: string;
  args: Record<string, unknown>;
}

function wxCalls(page: Page): Promise<WxCall[]> {
  return page.evaluate(() => (window as unknown as { __wxCalls?: WxCall[] }).__wxCalls ?? []);
}

/** Waits until the simulated SDK has recorded `count` timeline cards (each page sets one). */
async function waitForCards(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      ((window as unknown as { __wxCalls?: Array<{ name: string }> }).__wxCalls ?? []).filter((call) => call.name === 'updateTimelineShareData').length >=
      expected,
    count,
  );
}

describeWithBrowser()('WeChat JS-SDK sharing', () => {
  const suite = browserPortalSuite({
    menuFaults: false,
    env: (upstreamUrl) => ({ PUBLIC_ORIGIN_PROTOCOL: 'http', WECHAT_JSSDK_URL: `${upstreamUrl}${JWEIXIN_SCRIPT_PATH}` }),
  });
  let upstream: ReferenceServer;
  let t: TestPortal;
  let browser: Browser;

  beforeAll(() => {
    ({ portal: t, browser } = suite);
    upstream = t.upstream;
  });

  it('inside WeChat: loads the SDK, configures it with a valid signature and sets both cards, again after navigating', async () => {
    const { page, problems } = await watchedPage(browser, { userAgent: WECHAT_UA });
    const article = upstream.api.dataset.articles.find((entry) => entry.thumb !== '' && entry.description !== '')!;
    const detailUrl = `${t.url}/detail/${article.catid}/${article.id}`;
    await gotoHydrated(page, `${detailUrl}#comments`);
    await waitForCards(page, 1);
    expect(await page.evaluate(() => (window as unknown as { __wxVerified?: boolean }).__wxVerified)).toBe(true);

    const calls = await wxCalls(page);
    const config = calls.find((call) => call.name === 'config')!.args;
    expect(config).toMatchObject({ debug: false, appId: upstream.api.jsSdk.appId, jsApiList: ['updateAppMessageShareData', 'updateTimelineShareData'] });
    expect(config.signature).toBe(jsSdkSignature(upstream.api.jsSdk.ticket, String(config.nonceStr), Number(config.timestamp), detailUrl));
    const card = { title: article.title, desc: article.description, link: detailUrl, imgUrl: expect.stringMatching(new RegExp(`/media/img/a${article.id}-`)) };
    expect(calls.find((call) => call.name === 'updateAppMessageShareData')!.args).toEqual(card);
    expect(calls.find((call) => call.name === 'updateTimelineShareData')!.args).toEqual(card);

    // A client navigation home: signed again for the new address; the home card is the site name.
    await page.locator('a[href="/"]').first().click();
    await page.waitForURL(`${t.url}/`);
    await waitForCards(page, 2);
    const after = await wxCalls(page);
    expect(after.filter((call) => call.name === 'config')).toHaveLength(2);
    const home = after.filter((call) => call.name === 'updateTimelineShareData')[1]!.args;
    expect(home).toMatchObject({ title: PORTAL_INFO.name, desc: PORTAL_INFO.name, link: `${t.url}/`, imgUrl: `${t.url}/logo.png` });
    // The default picture is a raster logo WeChat can show, and it is there.
    const logo = await page.request.get(`${t.url}/logo.png`);
    expect([logo.status(), logo.headers()['content-type']]).toEqual([200, 'image/png']);
    // One script element, however many pages.
    expect(await page.locator(`script[src="${upstream.url}${JWEIXIN_SCRIPT_PATH}"]`).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('outside WeChat nothing is loaded and no signature is asked for', async () => {
    const { page, problems } = await watchedPage(browser);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const article = upstream.api.dataset.articles[5]!;
    await gotoHydrated(page, `${t.url}/detail/${article.catid}/${article.id}`);
    await page.locator('a[href="/"]').first().click();
    await page.waitForURL(`${t.url}/`);
    // The home page is shown (its title replaced the article's): its effects have run too.
    await page.waitForFunction((title) => !document.title.includes(title), article.title);
    expect(requested.filter((url) => url.includes('jweixin') || url.includes('get_jssdk_signature'))).toEqual([]);
    expect(await page.evaluate(() => typeof (window as unknown as { wx?: unknown }).wx)).toBe('undefined');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
