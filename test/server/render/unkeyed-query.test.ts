/**
 * A stored page holds only what its cache key holds: the path and the query parameters its page reads. Tracking
 * parameters (utm_*, WeChat's from=singlemessage, spm) of the reader who happened to fill the cache must reach
 * neither the stored state, nor the canonical or share links, nor the next reader.
 */
import { HOME_CATID } from '../../../shared/constants';
import { STATE_SCRIPT_ID, type AppState } from '../../../shared/app-state';
import { encodeKeyword } from '../../../shared/search';
import { rawRequest } from '../../support/http';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { firstHomeArticle } from '../../support/upstream-data';

const TRACKING = 'utm_source=X&from=singlemessage&spm=a2c4g.11186623&isappinstalled=0';

function stateOf(html: string): AppState {
  const match = new RegExp(`<script type="application/json" id="${STATE_SCRIPT_ID}"[^>]*>([^<]*)</script>`).exec(html);
  if (!match?.[1]) throw new Error('no state script in the page');
  return JSON.parse(match[1]) as AppState;
}

describe('query parameters a page does not read', () => {
  let t: TestPortal;
  let pages: Array<{ path: string; keeps: string }>;

  beforeAll(async () => {
    t = await startTestPortal();
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    pages = [
      { path: `/search/${encodeKeyword('青年')}/1`, keeps: '' },
      { path: `/detail/${raw.catid}/${raw.id}`, keeps: '' },
      { path: `/detailReading/${raw.catid}/${raw.id}`, keeps: '' },
      { path: '/license', keeps: '' },
      { path: '/', keeps: '' },
      { path: '/headlineNews', keeps: '?page=2' },
    ];
  });
  afterAll(async () => t.close());

  it('never reach the stored page: the first reader MISSes with them, the next reader HITs without them', async () => {
    for (const { path, keeps } of pages) {
      const first = await rawRequest(t.url, 'GET', `${path}?${TRACKING}${keeps ? `&${keeps.slice(1)}` : ''}`);
      expect([path, first.status, first.headers['x-cache']]).toEqual([path, 200, 'MISS']);
      const next = await rawRequest(t.url, 'GET', `${path}${keeps}`);
      expect([path, next.headers['x-cache']]).toEqual([path, 'HIT']);
      for (const body of [first.body, next.body]) {
        for (const name of ['utm_source', 'singlemessage', 'spm=', 'isappinstalled']) {
          if (body.includes(name)) throw new Error(`${path}: the page carries ${name}`);
        }
        expect(stateOf(body).page.path).toBe(`${path}${keeps}`);
      }
    }
  });

  it('the parameters a page reads stay in its state and canonical link, sorted one way', async () => {
    const answer = await rawRequest(t.url, 'GET', `/headlineNews?utm_medium=y&page=3`);
    expect(stateOf(answer.body).page.path).toBe('/headlineNews?page=3');
    expect(answer.body).toContain('<link rel="canonical" href="https://www.qnnews.cn/headlineNews?page=3"');
  });

  it('client navigations get the same address as the document', async () => {
    const answer = await rawRequest(t.url, 'GET', `/_data/page?path=${encodeURIComponent(`/license?${TRACKING}`)}`);
    const body = JSON.parse(answer.body) as { kind: string; page: { path: string } };
    expect(body.page.path).toBe('/license');
  });
});
