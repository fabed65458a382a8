/**
 * Issue 29, item 5: the top bar's QR panels (媒体矩阵, 手机版) show every code at the size it is drawn for, side by
 * side on a desktop and wrapped on a phone, inside the viewport. They had shrunk to 60/48/36/60 px, the
 * panel squeezing them instead of growing. Each popup's button says whether it is open (aria-expanded).
 */
import { browserPortalSuite, gotoHydrated, watchedPage } from '../support/browser';
import { describeWithBrowser } from '../support/requirements';

describeWithBrowser()('the top bar’s QR panels', () => {
  const suite = browserPortalSuite();

  // From 768px: a phone has no top bar (issue 38, item 2); its codes are the footer's.
  it.each([1296, 768])('shows each code at its own size, inside the viewport, at %ipx', async (width) => {
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width, height: 900 } });
    try {
      await gotoHydrated(page, `${suite.portal.url}/`);
      for (const name of ['媒体矩阵', '手机版']) {
        const tooltip = page.locator('.top-bar .tooltip', { has: page.getByRole('button', { name, exact: true }) });
        const button = tooltip.getByRole('button', { name, exact: true });
        expect({ name, expanded: await button.getAttribute('aria-expanded') }).toEqual({ name, expanded: 'false' });
        await button.focus();
        const panel = tooltip.locator('.tooltip__panel');
        await panel.waitFor({ state: 'visible' });
        // The popup says it is open while it shows (issue 29, item 2).
        expect({ name, expanded: await button.getAttribute('aria-expanded'), controls: await panel.getAttribute('id') }).toEqual({
          name,
          expanded: 'true',
          controls: await button.getAttribute('aria-controls'),
        });
        await page.waitForFunction((element) => [...element!.querySelectorAll('img')].every((image) => image.complete), await panel.elementHandle());
        const codes = await panel
          .locator('img.qr-code')
          .evaluateAll((images) =>
            images.map((image) => ({ drawn: Math.round(image.getBoundingClientRect().width), size: Number(image.getAttribute('width')) })),
          );
        expect(codes.length).toBeGreaterThan(0);
        expect({ name, width, codes }).toEqual({ name, width, codes: codes.map(({ size }) => ({ drawn: size, size })) });
        const box = (await panel.boundingBox())!;
        expect({ name, width, inside: box.x >= 0 && box.x + box.width <= width }).toEqual({ name, width, inside: true });
        // Focus elsewhere: the panel hides and the button says so.
        await page.locator('.logo').focus();
        await panel.waitFor({ state: 'hidden' });
        expect({ name, expanded: await button.getAttribute('aria-expanded') }).toEqual({ name, expanded: 'false' });
      }
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
