/**
 * The portal renders with React's stream renderer for Bun, into a destination that takes strings
 * (server/render/flushing-destination.ts). On every kind of page the portal serves, reached from home the way a
 * reader would, its document is byte for byte the head, React's Node build's output for the same tree and data,
 * the entry script and the end: for readers (the shell as soon as it is ready) and for crawlers (every block).
 */
import { Writable } from 'node:stream';
import { renderToPipeableStream as renderWithNodeBuild } from 'react-dom/server';
import { renderToPipeableStream as renderWithPortalBuild } from 'react-dom/server.bun';
import { DOCUMENT_END, documentAfterShell, documentHead } from '../../../server/render/document';
import { renderDocument, type RenderOptions } from '../../../server/render/render-document';
import { documentOptions, loadPageOf, pageInputs, pageTree, type PageInputs } from '../../../scripts/bench/render-floor';
import { startTestPortal, type TestPortal } from '../../support/portal';

const NONCE = 'c3RyZWFtcmVuZGVyZXIxMg==';

/** One internal path per first path segment of the links on home, with a search (the form's redirect) and a page that is not there. */
async function pagesOfEveryKind(url: string): Promise<string[]> {
  const home = await (await fetch(`${url}/`)).text();
  const byKind = new Map<string, string>([['', '/']]);
  for (const [, href] of home.matchAll(/href="(\/[^"#]*)"/g)) {
    const kind = href!.split(/[/?]/)[1] ?? '';
    if (!byKind.has(kind) && !href!.startsWith('/assets/')) byKind.set(kind, href!.replaceAll('&amp;', '&'));
  }
  return [...byKind.values(), `/search?q=${encodeURIComponent('青年')}`, '/detail/1/999999999'];
}

/**
 * Two React renderers in one process (the portal's and the Node build here) share the context objects: each
 * leaves the values of the last block it worked on set, and the other reads them (React Router's static router
 * then finds itself inside a router). Rendering nothing switches a renderer back to the root, restoring every
 * value it set. The portal's process has only its own renderer.
 */
async function settleRenderers(): Promise<void> {
  for (const render of [renderWithPortalBuild, renderWithNodeBuild]) {
    await new Promise<void>((resolve, reject) => {
      render(null, { onAllReady: resolve, onShellError: reject });
    });
  }
}

/** What React's Node build writes for the page's tree: the shell when ready, or everything (crawlers). */
async function nodeBuildOutput(inputs: PageInputs, waitForAll: boolean): Promise<string> {
  await settleRenderers();
  const tree = await pageTree(inputs, NONCE);
  return new Promise((resolve, reject) => {
    let html = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        html += chunk.toString('utf8');
        callback();
      },
    });
    out.once('finish', () => resolve(html));
    const stream = renderWithNodeBuild(tree, {
      nonce: NONCE,
      ...(waitForAll ? { progressiveChunkSize: Number.MAX_SAFE_INTEGER } : {}),
      onShellReady: () => (waitForAll ? undefined : stream.pipe(out)),
      onAllReady: () => (waitForAll ? stream.pipe(out) : undefined),
      onShellError: reject,
    });
  });
}

async function portalDocument(options: RenderOptions): Promise<{ html: string; clean: boolean }> {
  await settleRenderers();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    void renderDocument(options, {
      start: () => undefined,
      write: (chunk) => parts.push(chunk),
      end: (clean) => resolve({ html: Buffer.concat(parts).toString('utf8'), clean }),
      shellFailed: reject,
    });
  });
}

/** Where two documents part (with some text of each around it), or null when they are the same. */
function firstDifference(actual: string, expected: string): { at: number; actual: string; expected: string } | null {
  if (actual === expected) return null;
  let at = 0;
  while (actual[at] === expected[at]) at++;
  return { at, actual: actual.slice(at - 40, at + 80), expected: expected.slice(at - 40, at + 80) };
}

describe('the stream renderer the portal uses', () => {
  let t: TestPortal;
  const pages: Array<{ path: string; inputs: PageInputs }> = [];

  beforeAll(async () => {
    // Two React renderers in one process (the portal's and the Node build here): each leaves the context of the
    // last block it resumed in place, which React's development build reports when the other renders next. The
    // portal's process has only its own.
    const report = console.error.bind(console);
    jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).includes('multiple renderers concurrently rendering')) report(...args);
    });
    t = await startTestPortal();
    for (const path of await pagesOfEveryKind(t.url)) {
      const res = await fetch(t.url + path);
      const html = await res.text();
      // Links on home also lead to files (the sitemap, feeds): only documents are pages.
      if (!html.includes('id="__PORTAL_STATE__"')) continue;
      const inputs = pageInputs(html);
      await loadPageOf(inputs);
      pages.push({ path, inputs });
    }
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  it('reaches a dozen kinds of page from home, a search and a page that is not there', () => {
    const kinds = new Set(pages.map(({ inputs }) => inputs.state.page.page));
    expect(kinds.size).toBeGreaterThanOrEqual(12);
    expect([...kinds]).toEqual(expect.arrayContaining(['home', 'detail', 'search', 'not-found']));
  });

  it.each([
    ['a reader', false],
    ['a crawler', true],
  ])('writes, for %s, the document of React’s Node build byte for byte on every kind of page', async (_who, waitForAll) => {
    for (const { path, inputs } of pages) {
      const options = documentOptions(inputs, NONCE, waitForAll);
      const portal = await portalDocument(options);
      const react = await nodeBuildOutput(inputs, waitForAll);
      expect({ path, clean: portal.clean }).toEqual({ path, clean: true });
      // The app's root is there (its modifiers, such as app--tools on an article, vary by page).
      expect(react).toMatch(/<div class="app(?: [\w-]+)*">/);
      const expected = documentHead(options) + react + documentAfterShell(options.entryScript, NONCE) + DOCUMENT_END;
      expect({ path, difference: firstDifference(portal.html, expected) }).toEqual({ path, difference: null });
    }
  });
});
