/** Streaming rules of the renderer, with resources that fail or never settle. */
import type { AppState } from '../../../shared/app-state';
import { MAIN_SITE } from '../../../shared/sites';
import { createResourceStore } from '../../../client/data/resource-store';
import { loadPage } from '../../../shared/pages/registry';
import { renderDocument, type DocumentSink } from '../../../server/render/render-document';

const NOW = 1_795_400_000;

function homeState(): AppState {
  return {
    buildId: 'test',
    site: { id: MAIN_SITE.id, name: MAIN_SITE.name, domain: MAIN_SITE.domain, isMain: true },
    user: null,
    wechatJsSdkUrl: 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js',
    signInAvailable: true,
    layout: {
      menu: [],
      banner: [],
      friendlyLinks: [],
      seo: { title: '青年新闻网', keywords: '', description: '' },
      greyMode: 'off',
    },
    page: {
      path: '/',
      routeId: 'home',
      page: 'home',
      params: {},
      status: 200,
      data: { blocks: [], adSlots: [], lives: [], newsTracks: [] },
      head: { title: '青年新闻网', description: '', keywords: '' },
      now: NOW,
    },
  };
}

function collectingSink() {
  const events: string[] = [];
  let html = '';
  const sink: DocumentSink = {
    start: (status) => events.push(`start ${status}`),
    write: (chunk) => {
      html += Buffer.from(chunk).toString('utf8');
    },
    end: (clean) => events.push(`end clean=${clean}`),
    shellFailed: () => events.push('shell failed'),
  };
  return { sink, events, html: () => html };
}

function render(fetchResource: () => Promise<unknown>, timeoutMs: number, errors: unknown[], sink: DocumentSink) {
  return renderDocument(
    {
      state: homeState(),
      nonce: 'bm9uY2Vub25jZW5vbmNlMQ==',
      resources: createResourceStore(fetchResource),
      styles: [],
      preloads: [],
      entryScript: '/assets/entry.js',
      canonicalUrl: 'https://www.qnnews.cn/',
      visitStatsScript: null,
      waitForAll: false,
      timeoutMs,
      onRenderError: (error) => errors.push(error),
    },
    sink,
  );
}

describe('renderDocument', () => {
  beforeAll(async () => {
    await loadPage('home');
  });

  it('logs a block that fails after the shell, and still ends the document cleanly for the reader', async () => {
    const errors: unknown[] = [];
    const out = collectingSink();
    const outcome = await render(() => new Promise((_, reject) => setTimeout(() => reject(new Error('hot news exploded')), 50)), 5000, errors, out.sink);
    expect(outcome.clean).toBe(false);
    expect(out.events).toEqual(['start 200', 'end clean=false']);
    expect((errors[0] as Error).message).toBe('hot news exploded');
    expect(out.html()).toContain('</header>');
    expect(out.html()).toContain('hot-news__list--loading');
    expect(out.html().endsWith('</body></html>')).toBe(true);
  });

  it('aborts a render that runs past its deadline and leaves the block to the browser', async () => {
    const errors: unknown[] = [];
    const out = collectingSink();
    const started = performance.now();
    const outcome = await render(() => new Promise(() => undefined), 200, errors, out.sink);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(outcome.clean).toBe(false);
    expect(String(errors[0])).toContain('render exceeded 200 ms');
    expect(out.html().endsWith('</body></html>')).toBe(true);
    expect(out.html()).toContain('<script type="module" async src="/assets/entry.js" nonce="bm9uY2Vub25jZW5vbmNlMQ=="></script>');
  });

  it('writes the head, the shell, then the entry script, in that order', async () => {
    const out = collectingSink();
    await render(async () => [], 5000, [], out.sink);
    const html = out.html();
    const order = ['<title>青年新闻网</title>', '<div id="root">', '</footer>', '<script type="module"', '</body></html>'].map((marker) =>
      html.indexOf(marker),
    );
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
