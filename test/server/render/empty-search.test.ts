/**
 * Issue 29, item 5: an empty /search gives a field to type in. The page's own form, filled in and submitted as a
 * browser does (GET, its fields by name), leads to the keyword's results page.
 */
import request from 'supertest';
import { encodeKeyword } from '../../../shared/search-keyword';
import { startTestPortal, type TestPortal } from '../../support/portal';

describe('the empty search page', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a form of its own whose submission searches the keyword typed', async () => {
    const html = (await request(t.url).get('/search')).text;
    // The page's own form (the header's box is class "search"), wherever the stream puts the page's content.
    const form = /<form class="search-page__form"([^>]*)>(.*?)<\/form>/s.exec(html);
    expect(form).not.toBeNull();
    const [, attributes, body] = form!;
    expect(attributes).toContain('method="get"');
    const action = /action="([^"]+)"/.exec(attributes!)?.[1];
    const field = /<input[^>]*name="([^"]+)"/.exec(body!)?.[1];
    expect({ action: action !== undefined, field: field !== undefined }).toEqual({ action: true, field: true });
    expect(body).toContain('请输入关键词进行搜索');
    const answer = await request(t.url).get(`${action}?${new URLSearchParams({ [field!]: '青年' })}`);
    expect(answer.status).toBeGreaterThanOrEqual(300);
    expect(answer.status).toBeLessThan(400);
    expect(answer.headers.location).toContain(`/search/${encodeKeyword('青年')}`);
  });
});
