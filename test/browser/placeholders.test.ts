/**
 * A block that streams in takes the place its placeholder held: nothing below it moves (issue 51). For each
 * streamed side block (hot news, recommended topics, special columns), at each width, the block's height with its
 * items and with its placeholder in their place (the component's own markup, rendered by react-dom/server) are
 * the same. Measured without script, so the page stays as the server sent it.
 */
import type { ComponentType } from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Page } from 'playwright-core';
import { HotNewsSkeleton } from '../../shared/ui/blocks/HotNews';
import { TopicsSkeleton } from '../../shared/ui/blocks/RecommendedTopics';
import { ColumnsSkeleton } from '../../shared/ui/blocks/SpecialColumns';
import { browserPortalSuite, watchedPage } from '../support/browser';
import { firstLink } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

const WIDTHS = [360, 390, 768, 1296, 1920];
/** Rounding of fractional pixels, not a step a reader sees. */
const SLACK_PX = 1;

interface StreamedBlock {
  name: string;
  /** The block's own box, and within it what streams in (the placeholder takes its place). */
  block: string;
  items: string;
  placeholder: ComponentType;
}

const BLOCKS: StreamedBlock[] = [
  { name: 'hot news', block: '.hot-news', items: '.hot-news__list', placeholder: HotNewsSkeleton },
  { name: 'recommended topics', block: '.recommended-topics', items: '.side-topics', placeholder: TopicsSkeleton },
  // Without script the authors are their list alone (换一换 is drawn once the page runs).
  { name: 'special columns', block: '.special-columns', items: '.column-list', placeholder: ColumnsSkeleton },
];

/** The block's height with its items, then with the placeholder's markup in their place. */
async function heights(page: Page, block: StreamedBlock): Promise<{ items: number; placeholder: number }> {
  const markup = renderToStaticMarkup(createElement(block.placeholder));
  return page.evaluate(
    ({ selector, items, markup }) => {
      const box = document.querySelector(selector);
      const content = box?.querySelector(items);
      if (!box || !content) throw new Error(`${selector} ${items}: not on the page`);
      const withItems = box.getBoundingClientRect().height;
      const holder = document.createElement('template');
      holder.innerHTML = markup;
      content.replaceWith(holder.content);
      return { items: withItems, placeholder: box.getBoundingClientRect().height };
    },
    { selector: block.block, items: block.items, markup },
  );
}

describeWithBrowser()('placeholders of streamed blocks', () => {
  const suite = browserPortalSuite();

  it('hold their block’s height at every width, so nothing below moves when the items stream in', async () => {
    const article = await firstLink(suite.portal.url, '/', /^\/detail\/\d+\/\d+$/);
    const { page } = await watchedPage(suite.browser, { javaScriptEnabled: false });
    const shifts: string[] = [];
    try {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        for (const block of BLOCKS) {
          await page.goto(`${suite.portal.url}${article}`, { waitUntil: 'load' });
          const measured = await heights(page, block);
          expect(measured.items).toBeGreaterThan(0);
          const shift = measured.items - measured.placeholder;
          if (Math.abs(shift) > SLACK_PX)
            shifts.push(`${block.name} at ${width}px: ${measured.placeholder.toFixed(1)} px held, ${measured.items.toFixed(1)} px shown`);
        }
      }
    } finally {
      await page.context().close();
    }
    expect(shifts).toEqual([]);
  });
});
