/** A reader in a real browser: home hydrates cleanly, article links navigate client-side, back works. */
import type { Page } from 'playwright-core';
import { HOME_CATID } from '../../shared/constants';
import { browserPortalSuite, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';
import { articleList, homeCategories } from '../support/upstream-data';

describeWithBrowser()('hydration and client navigation', () => {
  const suite = browserPortalSuite();
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    ({ page, problems } = await watchedPage(suite.browser));
  });
  afterEach(async () => page.close());

  it('hydrates home with no console errors or hydration warnings', async () => {
    await page.goto(`${suite.portal.url}/`);
    await page.waitForSelector('html[data-hydrated="true"]');
    await page.waitForSelector('.hot-news__rank--5');
    expect(problems).toEqual([]);
  });

  it('navigates to an article without a full reload, and back', async () => {
    const [category] = await homeCategories(suite.portal.upstream.url, HOME_CATID);
    const list = await articleList(suite.portal.upstream.url, category!.catid);
    const target = list.lists[0]!;
    await page.goto(`${suite.portal.url}/`);
    await page.waitForSelector('html[data-hydrated="true"]');
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });
    const documentRequests: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'document') documentRequests.push(req.url());
    });

    await page.click(`a[href="/detail/${target.catid}/${target.id}"]`);
    await page.waitForSelector('h1.article__title');
    expect(new URL(page.url()).pathname).toBe(`/detail/${target.catid}/${target.id}`);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.title()).toContain(target.title.slice(0, 4));

    await page.goBack();
    await page.waitForSelector('.home-grid');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(documentRequests).toEqual([]);
    expect(problems).toEqual([]);
  });
});
