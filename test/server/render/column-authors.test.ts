/** The special-column block pages through every author the API reports (换一换 reaches the 21st and later too). */
import request from 'supertest';
import { RESOURCE_ENDPOINT } from '../../../shared/app-state';
import type { RawColumnAuthor } from '../../../server/upstream/wire';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { upstreamData } from '../../support/upstream-data';

describe('special-column authors block', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());

  it('loads every author the API reports, each once, in the API order', async () => {
    const reported = await upstreamData<{ list: RawColumnAuthor[]; count: number }>(t.upstream.url, '/api/special_column_author/list?page=1&page_size=50');
    expect(reported.count).toBeGreaterThan(20);
    const res = await request(t.url).get(`${RESOURCE_ENDPOINT}/columnAuthors`);
    expect(res.status).toBe(200);
    const ids = (res.body as { list: Array<{ id: number }> }).list.map((author) => author.id);
    expect(ids).toEqual(reported.list.map((author) => author.id));
    expect(new Set(ids).size).toBe(reported.count);
  });
});
