/**
 * POST /_data/client-error: what a route's error boundary reports from the browser (shared/ui/lib/report-error.ts)
 * lands in the server's log, once, bounded; anything else is a 400 with a message, and logs nothing.
 */
import request from 'supertest';
import { CLIENT_ERROR_ENDPOINT, CLIENT_ERROR_TEXT_LIMIT } from '../../../shared/client-error';
import { startTestPortal, type TestPortal } from '../../support/portal';

describe('client error reports', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());

  const reports = () => t.logs.filter((line) => line.msg === 'client error');

  it('logs a report and answers 204', async () => {
    const report = { path: '/detail/2728/1?page=2', message: "Cannot read properties of null (reading 'title')", stack: 'TypeError: …\n    at DetailPage' };
    const answer = await request(t.url).post(CLIENT_ERROR_ENDPOINT).set('User-Agent', 'test-browser').send(report);
    expect(answer.status).toBe(204);
    expect(reports().at(-1)).toMatchObject({ level: 40, clientError: report, ua: 'test-browser' });
  });

  it.each([
    ['a path that is not a site path', { path: 'https://evil.example/', message: 'x' }],
    ['a missing message', { path: '/' }],
    ['a message over the limit', { path: '/', message: 'x'.repeat(CLIENT_ERROR_TEXT_LIMIT + 1) }],
    ['a field no report has', { path: '/', message: 'x', token: 'secret' }],
    ['a message that is not text', { path: '/', message: { nested: true } }],
  ])('refuses %s with a 400 and logs nothing', async (_case, body) => {
    const before = reports().length;
    const answer = await request(t.url).post(CLIENT_ERROR_ENDPOINT).send(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/client error report/);
    expect(reports()).toHaveLength(before);
  });

  it('reads JSON only: a form post (what another site could send without a preflight) is a 400', async () => {
    const before = reports().length;
    const answer = await request(t.url).post(CLIENT_ERROR_ENDPOINT).type('form').send({ path: '/', message: 'x' });
    expect(answer.status).toBe(400);
    expect(reports()).toHaveLength(before);
  });

  it('refuses a body past its size with a 413, not a 500', async () => {
    const answer = await request(t.url)
      .post(CLIENT_ERROR_ENDPOINT)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ path: '/', message: 'x'.repeat(64 * 1024) }));
    expect(answer.status).toBe(413);
  });
});
