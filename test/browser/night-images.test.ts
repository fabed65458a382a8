/**
 * Issue 29, item 5: at night an article's pictures are dimmed, so a chart on white is not the brightest thing on a
 * dark page; by day they are drawn as they are. On the detail and the reading page, switched by the reader.
 */
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** An article of home whose body holds a picture. */
async function articleWithPicture(base: string): Promise<string> {
  const home = await (await fetch(`${base}/`)).text();
  const paths = [...new Set([...home.matchAll(/href="(\/detail\/\d+\/\d+)"/g)].map((match) => match[1]!))];
  for (const path of paths.slice(0, 40)) {
    const html = await (await fetch(`${base}${path}`, { headers: { 'user-agent': DESKTOP_UA } })).text();
    if (/class="article__body"[^>]*>[\s\S]*?<img/.test(html)) return path;
  }
  throw new Error('no article of home has a picture in its body');
}

describeWithBrowser()('article pictures at night', () => {
  const suite = browserPortalSuite();

  it('are dimmed at night and drawn as they are by day, on the detail and the reading page', async () => {
    const detail = await articleWithPicture(suite.portal.url);
    const { page, problems } = await watchedPage(suite.browser, { userAgent: DESKTOP_UA, viewport: { width: 1296, height: 900 } });
    const brightness = () =>
      page.locator('.article__body img').evaluateAll((images) =>
        images.map((image) => {
          const filter = getComputedStyle(image).filter;
          return filter === 'none' ? 1 : Number(/brightness\(([\d.]+)\)/.exec(filter)?.[1] ?? 1);
        }),
      );
    try {
      for (const path of [detail, detail.replace('/detail/', '/detailReading/')]) {
        await gotoHydrated(page, `${suite.portal.url}${path}`);
        const night = page.locator('.float-menu__night');
        if ((await night.getAttribute('aria-pressed')) === 'true') await night.click();
        await page.waitForFunction(() => !document.documentElement.classList.contains('theme-dark'));
        const day = await brightness();
        expect(day.length).toBeGreaterThan(0);
        expect({ path, day: day.every((value) => value === 1) }).toEqual({ path, day: true });
        await night.click();
        await page.waitForFunction(() => document.documentElement.classList.contains('theme-dark'));
        expect({ path, dimmed: (await brightness()).every((value) => value <= 0.85) }).toEqual({ path, dimmed: true });
        await night.click();
      }
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
