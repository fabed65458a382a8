/**
 * React Router runs the page (server/render/page-router.ts): the static handler's query calls the route's loader,
 * which runs the page's own loader with the request's content calls; its status and errors are the handler's.
 * The content calls here fail on purpose, each naming the call, to show which loader ran and what becomes of it.
 */
import type { ContentApi } from '../../../shared/content-api';
import { ContentUnavailableError } from '../../../shared/content-api';
import { addressOf } from '../../../shared/page-address';
import { MAIN_SITE } from '../../../shared/sites';
import { createResourceStore } from '../../../shared/ui/data/resource-store';
import { PageLoad, routePage } from '../../../server/render/page-router';
import { renderDocument } from '../../../server/render/render-document';
import { CallRecorder } from '../../../server/upstream/content-service';
import type { AppState } from '../../../shared/app-state';
import { IMAGES_OFF } from '../../../shared/image-pipeline';

/** A content API every call of which fails with `failure(call)`: a bug (TypeError) or the upstream down. */
function failingContent(failure: (call: string) => Error): ContentApi {
  return new Proxy({} as ContentApi, {
    get: (_target, call) => () => Promise.reject(failure(String(call))),
  });
}

function loadOf(path: string, content: ContentApi, errors: unknown[] = []): PageLoad {
  return new PageLoad({
    site: MAIN_SITE,
    address: addressOf(path, ''),
    content,
    pageCalls: new CallRecorder(),
    now: 1_700_000_000,
    account: null,
    onLoaderError: (error) => errors.push(error),
  });
}

async function documentOf(state: AppState['page'], router: Parameters<typeof renderDocument>[0]['router']): Promise<string> {
  const parts: Buffer[] = [];
  const appState: AppState = {
    buildId: 'test',
    site: { id: MAIN_SITE.id, name: MAIN_SITE.name, domain: MAIN_SITE.domain, isMain: true },
    user: null,
    images: IMAGES_OFF,
    wechatJsSdkUrl: '',
    signInAvailable: false,
    layout: { menu: [], banner: [], friendlyLinks: [], seo: { title: 't', keywords: 'k', description: 'd' }, greyMode: 'off' },
    page: state,
    preview: false,
  };
  await renderDocument(
    {
      state: appState,
      router,
      nonce: 'bm9uY2U=',
      resources: createResourceStore(() => Promise.reject(new Error('no blocks here'))),
      styles: [],
      preloads: [],
      entryScript: '/assets/entry.js',
      canonicalUrl: 'https://www.qnnews.cn/',
      visitStatsScript: null,
      waitForAll: true,
      timeoutMs: 10_000,
      onRenderError: () => undefined,
    },
    { start: () => undefined, write: (chunk) => parts.push(chunk), end: () => undefined, shellFailed: (error) => parts.push(Buffer.from(String(error))) },
  );
  return Buffer.concat(parts).toString('utf8');
}

describe('React Router runs the page', () => {
  it("runs the matched route's own loader: a loader that throws is the route's error boundary, a 500", async () => {
    const errors: unknown[] = [];
    const routed = await routePage(
      loadOf(
        '/detail/2728/33727',
        failingContent((call) => new TypeError(`bug in ${call}`)),
        errors,
      ),
    );
    if (routed.kind !== 'page') throw new Error('the detail page redirected');
    expect(routed.router.statusCode).toBe(500);
    // The error React Router holds is the one the detail page's loader threw, at the detail route.
    expect(Object.keys(routed.router.errors ?? {})).toEqual(['detail']);
    expect(String(routed.router.errors?.detail)).toMatch(/^TypeError: bug in \w+/);
    expect(errors).toEqual([routed.router.errors?.detail]);
    expect(routed.page).toMatchObject({ status: 500, page: 'error' });
    const html = await documentOf(routed.page, routed.router);
    expect(html).toContain('<p class="status-page__code">500</p>');
  });

  it('answers a page whose data could not be had with the 503 page, as loader data with its status', async () => {
    const routed = await routePage(
      loadOf(
        '/V1/2728',
        failingContent((call) => new ContentUnavailableError(call)),
      ),
    );
    if (routed.kind !== 'page') throw new Error('the list page redirected');
    expect(routed.router.errors).toBeNull();
    expect(routed.router.statusCode).toBe(503);
    expect(routed.page).toMatchObject({ status: 503, page: 'error' });
    expect(routed.router.loaderData['V1-id']).toBe(routed.page);
  });

  it('gives a path no page takes the 404 page from the route React Router matched, without a content call', async () => {
    for (const [path, routeId] of [
      ['/no/such/page', 'other-paths'],
      ['/detail/V1/12', 'detail'],
    ] as const) {
      const routed = await routePage(
        loadOf(
          path,
          failingContent((call) => new Error(`no call expected, got ${call}`)),
        ),
      );
      if (routed.kind !== 'page') throw new Error(`${path} redirected`);
      expect([path, routed.router.statusCode, routed.page.page]).toEqual([path, 404, 'not-found']);
      expect(routed.router.matches.at(-1)?.route.id).toBe(routeId);
    }
  });

  it("redirects where the route table says, before React Router's query", async () => {
    expect(
      await routePage(
        loadOf(
          '/detail/12',
          failingContent(() => new Error('no call expected')),
        ),
      ),
    ).toEqual({ kind: 'redirect', location: '/', permanent: false });
  });
});
