/**
 * The interaction calls exactly as the browser module makes them (shared/ui/lib/interactions-api.ts, over real
 * HTTP), through the portal's /api proxy to the reference API: likes with their count, collections of articles
 * and videos, subscriptions to column authors and tags, each reader's state apart, and docs/product.md §8 failures.
 */
import { callApi, fetchGroupStates, fetchLikeCount, toggleInteraction, type ApiTransport } from '../../../shared/ui/lib/interactions-api';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { signIn, signInEnv } from '../../support/sign-in';

describe('interaction calls through the proxy', () => {
  let upstream: ReferenceServer;
  let t: TestPortal;
  let alice: ApiTransport;
  let bob: ApiTransport;
  let visitor: ApiTransport;

  /** The portal's own origin as a page on it would send it, and the reader's session cookie, if any. */
  function transport(session: string | null): ApiTransport {
    return {
      base: t.url,
      fetch: (url, init) => {
        const headers = new Headers(init.headers);
        headers.set('origin', t.url);
        if (session) headers.set('cookie', `portal_session=${session}`);
        return fetch(url, { ...init, headers });
      },
    };
  }

  beforeAll(async () => {
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    t = await startTestPortal({ upstream, env: { ...signInEnv(upstream.url), UPSTREAM_TIMEOUT_MS: '2000' } });
    alice = transport(await signIn(t, '互动读者甲'));
    bob = transport(await signIn(t, '互动读者乙'));
    visitor = transport(null);
  });

  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  afterEach(() => upstream.api.control.reset());

  it('likes and unlikes an article; the count follows and each reader sees only their own like', async () => {
    const article = { kind: 'thumbsup', catid: 2728, id: 501 } as const;
    expect(await fetchLikeCount(2728, 501, visitor)).toBe(0);
    expect(await toggleInteraction(article, alice)).toEqual({ ok: true, on: true });
    expect(await toggleInteraction(article, bob)).toEqual({ ok: true, on: true });
    expect(await fetchLikeCount(2728, 501, visitor)).toBe(2);
    const group = { kind: 'thumbsup', catid: 2728, ids: [501, 502] } as const;
    expect(await fetchGroupStates(group, alice)).toEqual(
      new Map([
        [501, true],
        [502, false],
      ]),
    );
    expect(await toggleInteraction(article, alice)).toEqual({ ok: true, on: false });
    expect(await fetchGroupStates(group, alice)).toEqual(
      new Map([
        [501, false],
        [502, false],
      ]),
    );
    expect(await fetchGroupStates(group, bob)).toEqual(
      new Map([
        [501, true],
        [502, false],
      ]),
    );
    expect(await fetchLikeCount(2728, 501, visitor)).toBe(1);
  });

  it('collects articles and videos apart', async () => {
    expect(await toggleInteraction({ kind: 'collection', catid: 2728, id: 601 }, alice)).toEqual({ ok: true, on: true });
    expect(await toggleInteraction({ kind: 'collection_video', catid: 2728, id: 602 }, alice)).toEqual({ ok: true, on: true });
    expect(await fetchGroupStates({ kind: 'collection', catid: 2728, ids: [601, 602] }, alice)).toEqual(
      new Map([
        [601, true],
        [602, false],
      ]),
    );
    expect(await fetchGroupStates({ kind: 'collection_video', catid: 2728, ids: [601, 602] }, alice)).toEqual(
      new Map([
        [601, false],
        [602, true],
      ]),
    );
  });

  it('subscribes to column authors (one batch_exist for the list) and to tags', async () => {
    expect(await toggleInteraction({ kind: 'author', id: 3 }, alice)).toEqual({ ok: true, on: true });
    expect(await toggleInteraction({ kind: 'tag', id: 12 }, alice)).toEqual({ ok: true, on: true });
    const before = upstream.api.control.stats().total;
    expect(await fetchGroupStates({ kind: 'author', ids: [1, 2, 3, 4] }, alice)).toEqual(
      new Map([
        [1, false],
        [2, false],
        [3, true],
        [4, false],
      ]),
    );
    expect(upstream.api.control.stats().total - before).toBe(1);
    expect(await fetchGroupStates({ kind: 'tag', ids: [12, 13] }, alice)).toEqual(
      new Map([
        [12, true],
        [13, false],
      ]),
    );
    // A tag and an author with the same id are different subscriptions.
    expect(await fetchGroupStates({ kind: 'author', ids: [12] }, alice)).toEqual(new Map([[12, false]]));
    expect(await toggleInteraction({ kind: 'author', id: 3 }, alice)).toEqual({ ok: true, on: false });
    expect(await fetchGroupStates({ kind: 'author', ids: [3] }, alice)).toEqual(new Map([[3, false]]));
  });

  it('a visitor is asked to sign in; reads of their state are nothing', async () => {
    expect(await toggleInteraction({ kind: 'collection', catid: 2728, id: 601 }, visitor)).toEqual({ ok: false, code: 40101 });
    expect(await fetchGroupStates({ kind: 'tag', ids: [12] }, visitor)).toBeNull();
  });

  it('a CMS failure code is a failed toggle and an unknown state (docs/product.md §8)', async () => {
    upstream.api.control.setFailures([
      { path: '/api/tag/toggle', mode: 'code', code: 50000 },
      { path: '/api/column_subscribe/batch_exist', mode: 'code', code: 50000 },
    ]);
    expect(await toggleInteraction({ kind: 'tag', id: 12 }, alice)).toEqual({ ok: false, code: 50000 });
    expect(await fetchGroupStates({ kind: 'author', ids: [1] }, alice)).toBeNull();
  });

  it('an HTTP error upstream comes back as its body, a missing answer as {code:500}', async () => {
    upstream.api.control.setFailures([
      { path: '/api/thumbsup/toggle', mode: 'http500' },
      { path: '/api/thumbsup/get_num', mode: 'hang' },
    ]);
    expect(await toggleInteraction({ kind: 'thumbsup', catid: 2728, id: 501 }, alice)).toEqual({ ok: false, code: 500 });
    expect(await callApi({ method: 'GET', path: '/api/thumbsup/get_num?article_id=501&catid=2728' }, visitor)).toEqual({
      code: 500,
      msg: '失败',
      data: null,
    });
    expect(await fetchLikeCount(2728, 501, visitor)).toBeNull();
  });

  it('no answer at all (portal unreachable) is {code:500, msg:失败}', async () => {
    const nowhere: ApiTransport = { base: 'http://127.0.0.1:1', fetch: (url, init) => fetch(url, init) };
    expect(await callApi({ method: 'POST', path: '/api/tag/toggle', body: { tag_id: 1 } }, nowhere)).toEqual({ code: 500, msg: '失败', data: null });
  });

  it('a call the proxy refuses is a failure with the proxy code, not a crash', async () => {
    const noOrigin: ApiTransport = { base: t.url, fetch: (url, init) => fetch(url, init) };
    expect(await toggleInteraction({ kind: 'tag', id: 12 }, noOrigin)).toEqual({ ok: false, code: 403 });
    expect(await callApi({ method: 'GET', path: '/api/not/listed' }, visitor)).toEqual({ code: 404, msg: 'Not Found', data: null });
  });
});
