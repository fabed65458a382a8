/**
 * The news-tracking page against a real portal and the reference content API: a report's timeline in the
 * order the story unfolded, a 404 for an id with no report, and the family root /newsTrack sent home.
 */
import request from 'supertest';
import { escapeHtml } from '../../platform/html';
import type { RawSpecialReport } from '../../upstream/wire';
import { startTestPortal, type TestPortal } from '../../../test/support/portal';
import { upstreamData } from '../../../test/support/upstream-data';

describe('the news-tracking page', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => t.close());

  it("shows a report's updates as a timeline, each stage before the next", async () => {
    const [report] = await upstreamData<RawSpecialReport[]>(t.upstream.url, '/api/special/list_by_catid?catid=0');
    const page = await request(t.url).get(`/newsTrack/${report!.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<title>${escapeHtml(report!.title)} - `);
    const stages = [...page.text.matchAll(/<span class="timeline__stage">([^<]*)<\/span>/g)].map((found) => found[1]);
    expect(stages.length).toBeGreaterThan(0);
    expect(stages[0]).toBe(escapeHtml(report!.articles[0]!.stage));
  });

  it('is a 404 for an id with no report, and /newsTrack without one redirects home', async () => {
    expect((await request(t.url).get('/newsTrack/999999')).status).toBe(404);
    const bare = await request(t.url).get('/newsTrack');
    expect([bare.status, bare.headers.location]).toEqual([302, '/']);
  });
});
