/** Streaming rules of the renderer, with resources that fail or never settle. */
import type { AppState } from '../../../shared/app-state';
import { IMAGES_OFF } from '../../../shared/image-pipeline';
import { MAIN_SITE } from '../../../shared/sites';
import { createResourceStore } from '../../../shared/ui/data/resource-store';
import { loadPage } from '../../../shared/pages/registry';
import { renderDocument, type DocumentSink } from '../../../server/render/render-document';
import { contextOfLoadedPage } from '../../../server/render/page-router';

const NOW = 1_795_400_000;

function homeState(): AppState {
  return {
    buildId: 'test',
    site: { id: MAIN_SITE.id, name: MAIN_SITE.name, domain: MAIN_SITE.domain, isMain: true },
    user: null,
    images: IMAGES_OFF,
    wechatJsSdkUrl: 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js',
    signInAvailable: true,
    preview: false,
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
  const writes: Buffer[] = [];
  const copies: Buffer[] = [];
  let html = '';
  const sink: DocumentSink = {
    start: (status) => events.push(`start ${status}`),
    write: (chunk) => {
      writes.push(chunk);
      copies.push(Buffer.from(chunk));
      html += chunk.toString('utf8');
    },
    end: (clean) => events.push(`end clean=${clean}`),
    shellFailed: () => events.push('shell failed'),
  };
  return { sink, events, writes, copies, html: () => html };
}

function render(fetchResource: () => Promise<unknown>, timeoutMs: number, errors: unknown[], sink: DocumentSink) {
  return renderDocument(
    {
      state: homeState(),
      router: contextOfLoadedPage(homeState().page),
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
    // The block never settles: only the deadline can end this render (it names itself in the error below).
    const outcome = await render(() => new Promise(() => undefined), 200, errors, out.sink);
    expect(outcome.clean).toBe(false);
    expect(String(errors[0])).toContain('render exceeded 200 ms');
    expect(out.html().endsWith('</body></html>')).toBe(true);
    expect(out.html()).toContain('<script nonce="bm9uY2Vub25jZW5vbmNlMQ==" type="module" async>import "/assets/entry.js"</script>');
  });

  it('writes the head, the shell, then the entry script, in that order', async () => {
    const out = collectingSink();
    await render(async () => [], 5000, [], out.sink);
    const html = out.html();
    const order = ['<title>青年新闻网</title>', '<div id="root">', '</footer>', 'type="module" async>import "/assets/entry.js"', '</body></html>'].map(
      (marker) => html.indexOf(marker),
    );
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('writes head, shell and entry script as one buffer, then one per later flush, none changed once written', async () => {
    const out = collectingSink();
    const pending: Array<(items: unknown[]) => void> = [];
    const rendering = render(() => new Promise((resolve) => pending.push(resolve)), 5000, [], out.sink);
    await waitFor(() => out.writes.length > 0);
    expect(out.writes).toHaveLength(1);
    const shell = out.writes[0]!.toString('utf8');
    expect(shell.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(shell).toContain('<div id="root">');
    expect(shell).toContain('type="module" async>import "/assets/entry.js"</script>');
    expect(shell).not.toContain('</body></html>');
    for (const settle of pending) settle([]);
    await rendering;
    expect(out.writes.length).toBeGreaterThan(1);
    expect(out.html().endsWith('</body></html>')).toBe(true);
    // A sink may keep what it was given (the page cache does) without copying: nothing is written into it later.
    expect(out.writes.every((chunk, index) => chunk.equals(out.copies[index]!))).toBe(true);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
