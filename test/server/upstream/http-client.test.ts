/** The envelope rules of docs/product.md §8 against the reference content API's real failure modes. */
import { UpstreamClient, UpstreamHttpError } from '../../../server/upstream/http-client';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { RawCategoryIndexSchema, RawMenuListSchema } from '../../../server/upstream/wire';

type Server = Awaited<ReturnType<typeof startReferenceApi>>;

describe('UpstreamClient', () => {
  let upstream: Server;
  let client: UpstreamClient;
  const calls: string[] = [];

  beforeAll(async () => {
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    client = new UpstreamClient({
      baseUrl: upstream.url,
      timeoutMs: 300,
      maxBodyBytes: 1_000_000,
      onCall: (call, outcome) => calls.push(`${call}:${outcome}`),
    });
  });
  afterAll(async () => {
    client.close();
    await upstream.close();
  });
  afterEach(() => {
    upstream.api.control.reset();
    calls.length = 0;
  });

  const menu = { method: 'GET' as const, path: '/api/common/get_menu_list', call: 'menu' };

  it('reads code 0 as ok, with the data', async () => {
    const result = await client.request(menu, RawMenuListSchema);
    expect(result.outcome).toBe('ok');
    expect(Array.isArray(result.envelope.data)).toBe(true);
    expect(calls).toEqual(['menu:ok']);
  });

  it('reads a non-zero code as an empty answer, keeping the message', async () => {
    const result = await client.request({ method: 'GET', path: '/show/2728-99999999.html', call: 'show' });
    expect(result.outcome).toBe('empty');
    expect(result.envelope.code).not.toBe(0);
    expect(result.envelope.msg).toBe('文章不存在');
  });

  it('sends POST bodies as JSON', async () => {
    const result = await client.request(
      { method: 'POST', path: '/mobile/index/category_index', body: { catid: 2727 }, call: 'category_index' },
      RawCategoryIndexSchema,
    );
    if (result.outcome !== 'ok') throw new Error(`expected ok, got ${result.outcome}`);
    expect(result.envelope.data.children.length).toBeGreaterThan(0);
  });

  it.each([
    ['a list that is not a list', { code: 0, msg: 'ok', data: { children: 'none' } }, 'children'],
    ['an item missing a field', { code: 0, msg: 'ok', data: { children: [{ catid: 1, catname: '新闻' }] } }, 'children.0'],
    ['null data', { code: 0, msg: 'ok', data: null }, '(data)'],
  ])('refuses code-0 data of the wrong shape (%s) as a failed call, counted as invalid', async (_label, body, where) => {
    upstream.api.control.setAnswers([{ path: '/mobile/index/category_index', body }]);
    const result = await client.request(
      { method: 'POST', path: '/mobile/index/category_index', body: { catid: 2727 }, call: 'category_index' },
      RawCategoryIndexSchema,
    );
    expect(result).toMatchObject({ outcome: 'unavailable', envelope: { code: 500, data: null } });
    expect(result.outcome === 'unavailable' && result.reason).toContain(where);
    expect(calls).toEqual(['category_index:invalid']);
  });

  it.each(['\ud800', '\udfff', '\udfff\ud800', '\udbff\udbff'])('makes every string of an answer well-formed, keys too (%j as U+FFFD)', async (lone) => {
    const body = { code: 0, msg: `ok${lone}`, data: { [`k${lone}`]: [`v${lone}`, { deep: `${lone}x\ud83d\ude00` }], n: 1 } };
    upstream.api.control.setAnswers([{ path: '/api/common/grey_mode', body }]);
    const result = await client.request({ method: 'GET', path: '/api/common/grey_mode', call: 'grey_mode' });
    const replaced = '\ufffd'.repeat(lone.length);
    expect(result.envelope).toEqual({
      code: 0,
      msg: `ok${replaced}`,
      data: { [`k${replaced}`]: [`v${replaced}`, { deep: `${replaced}x\ud83d\ude00` }], n: 1 },
    });
  });

  it('refuses an answer over the size limit without parsing it, counted as too-large', async () => {
    const small = new UpstreamClient({ baseUrl: upstream.url, timeoutMs: 300, maxBodyBytes: 256, onCall: (call, outcome) => calls.push(`${call}:${outcome}`) });
    try {
      const result = await small.request(menu, RawMenuListSchema);
      expect(result.outcome).toBe('unavailable');
      expect(result.outcome === 'unavailable' && result.reason).toContain('UPSTREAM_MAX_BODY_BYTES');
      expect(calls).toEqual(['menu:too-large']);
      // The same client still answers what fits.
      calls.length = 0;
      expect((await small.request({ method: 'GET', path: '/api/common/grey_mode', call: 'grey_mode' })).outcome).toBe('ok');
    } finally {
      small.close();
    }
  });

  it('turns no response (a hang past the timeout) into {code:500, msg:失败, data:null}', async () => {
    upstream.api.control.setFailures([{ path: '/api/common/get_menu_list', mode: 'hang' }]);
    const result = await client.request(menu);
    expect(result).toMatchObject({ outcome: 'unavailable', envelope: { code: 500, msg: '失败', data: null } });
    // The upstream never answers: the client's own timeout ended the call (it aborts the request), not the upstream.
    expect(result.outcome === 'unavailable' && result.reason).toMatch(/aborted/);
  });

  it('turns a refused connection into the same no-response envelope', async () => {
    const dead = new UpstreamClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 300, maxBodyBytes: 1_000_000 });
    expect(await dead.request(menu)).toMatchObject({ outcome: 'unavailable', envelope: { code: 500, msg: '失败' } });
    dead.close();
  });

  it('rejects with the server body on an HTTP error', async () => {
    upstream.api.control.setFailures([{ path: '/api/common/get_menu_list', mode: 'http500' }]);
    const error = await client.request(menu).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamHttpError);
    expect((error as UpstreamHttpError).status).toBe(500);
    expect((error as UpstreamHttpError).body).toContain('500');
  });

  it('rejects malformed JSON as a failed answer, not as data', async () => {
    upstream.api.control.setFailures([{ path: '/api/common/get_menu_list', mode: 'badjson' }]);
    const error = await client.request(menu).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamHttpError);
    expect((error as UpstreamHttpError).status).toBe(200);
    expect(calls).toEqual(['menu:http-error']);
  });
});
